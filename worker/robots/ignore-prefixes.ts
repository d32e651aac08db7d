import { canonicalize } from '../url';

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

/**
 * `prefix` as canonical URLs write it (https://example.org/ for a bare origin; its host in punycode
 * and without a trailing dot, its path's letters in other scripts escaped in UTF-8, as
 * `/%E6%97%A5%E6%9C%AC/`: written in their script they matched no URL), or null when it is no
 * http(s) URL. A `?` it ends with stays: "this path, with a query".
 */
function normalised(prefix: string): string | null {
  const canonical = canonicalize(prefix);
  if (canonical === null) return null;
  return prefix.endsWith('?') && !canonical.includes('?') ? `${canonical}?` : canonical;
}
