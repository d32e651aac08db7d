/**
 * Lists of strings as one string of lines, to cross to and from a thread: postMessage clones an
 * array of objects field by field, and one string crosses in a fraction of that time. Only for
 * values that never hold a line break (canonical URLs, link kinds and sources).
 */
export function joinLines<T>(items: readonly T[], field: (item: T) => string): string {
  return items.map(field).join('\n');
}

/** Inverse of joinLines(): no items make '', which is no line rather than one empty line. */
export function splitLines(s: string): string[] {
  return s === '' ? [] : s.split('\n');
}
