/**
 * The SQL function `frontier_url_matches(pattern, url)`: whether `url` matches the regular
 * expression `pattern`, compiled as the ICD's scope patterns are (`new RegExp(source)`, compileScope).
 * A statement over many rows passes one pattern: it is compiled once and kept, with the few other
 * patterns used last, so a pass over 100,000 queued URLs compiles it once, not 100,000 times.
 * Throws as `new RegExp` does for a pattern that does not compile (callers validate first).
 */
export function urlPatternMatcher(keep = 16): (pattern: unknown, url: unknown) => number {
  const compiled = new Map<string, RegExp>();
  return (pattern, url) => {
    if (typeof pattern !== 'string' || typeof url !== 'string') return 0;
    let re = compiled.get(pattern);
    if (!re) {
      re = new RegExp(pattern);
      if (compiled.size >= keep) compiled.delete(compiled.keys().next().value!);
      compiled.set(pattern, re);
    }
    return re.test(url) ? 1 : 0;
  };
}
