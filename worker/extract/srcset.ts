/**
 * The URLs of a `srcset` attribute, following the HTML standard's parser: a URL is a run of
 * non-space characters (so commas inside it are kept), a trailing comma ends a candidate, and
 * descriptors run to the next comma outside parentheses.
 */
export function parseSrcset(srcset: string): string[] {
  const urls: string[] = [];
  const n = srcset.length;
  let i = 0;
  const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';
  while (i < n) {
    while (i < n && (isSpace(srcset[i]) || srcset[i] === ',')) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !isSpace(srcset[i])) i++;
    let url = srcset.slice(start, i);
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      let depth = 0;
      for (; i < n; i++) {
        const c = srcset[i];
        if (c === '(') depth++;
        else if (c === ')') depth = Math.max(0, depth - 1);
        else if (c === ',' && depth === 0) {
          i++;
          break;
        }
      }
    }
    if (url) urls.push(url);
  }
  return urls;
}
