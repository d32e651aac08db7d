/**
 * The URL prefixes an ICD's `politeness.ignoreRobotsFor` names, as the robots check compares them
 * with URLs (`startsWith`). Archivists write `example.org` or `https://Example.org`: compared as
 * written, neither ever matched, and robots.txt was obeyed without a word. A prefix without a scheme
 * stands for both http and https; scheme and host are lower-cased (the path is case-sensitive and
 * kept). An entry that is no URL at all is kept as written.
 */
export function robotsIgnorePrefixes(entries: readonly string[]): string[] {
  return entries.flatMap((entry) => {
    const trimmed = entry.trim();
    if (!trimmed) return [];
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return [normalised(trimmed) ?? trimmed];
    const both = [normalised(`http://${trimmed}`), normalised(`https://${trimmed}`)];
    return both.every((p) => p !== null) ? (both as string[]) : [trimmed];
  });
}

/** `prefix` with its scheme and host as URLs have them (`https://example.org/` for a bare origin), or null. */
function normalised(prefix: string): string | null {
  try {
    const url = new URL(prefix);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(prefix)![0];
    const rest = prefix.slice(authority.length);
    return `${url.protocol}//${url.host}${rest || '/'}`;
  } catch {
    return null;
  }
}
