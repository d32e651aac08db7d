// The crash explorer's invariants over what it read back from the output folder: pure comparisons,
// each violation one line that says what is wrong where.

/** Counts of each item of a list. */
export function countEach(items: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
}

/** robots.txt is fetched again by a run that starts afresh: any number of its captures is whole. */
export const isRobotsTxt = (url: string): boolean => new URL(url).pathname === '/robots.txt';

/**
 * Each of `expected` must be counted exactly once in `counts` (what `source` holds, by URL), and
 * nothing else may be, but for URLs `anyCount` lets through.
 */
export function exactlyOnceViolations(expected: readonly string[], counts: ReadonlyMap<string, number>, source: string, anyCount: (url: string) => boolean = isRobotsTxt): string[] {
  const violations: string[] = [];
  const wanted = new Set(expected);
  for (const url of expected) {
    const n = counts.get(url) ?? 0;
    if (n !== 1) violations.push(`${source}: ${url} captured ${n} times, not once`);
  }
  for (const [url, n] of counts) {
    if (!wanted.has(url) && !anyCount(url)) violations.push(`${source}: ${url}, not a page of the site, captured ${n} times`);
  }
  return violations;
}

/** The WARC files' response and revisit records must each have one index line, and the index no other line. */
export function indexCoverageViolations(records: ReadonlyMap<string, number>, indexLines: ReadonlyMap<string, number>): string[] {
  const violations: string[] = [];
  for (const url of new Set([...records.keys(), ...indexLines.keys()])) {
    const [inWarcs, inIndex] = [records.get(url) ?? 0, indexLines.get(url) ?? 0];
    if (inWarcs !== inIndex) violations.push(`index.cdxj: ${url} has ${inIndex} lines for ${inWarcs} records in the WARC files`);
  }
  return violations;
}

/**
 * Files a finished crawl must not leave in its output folder: anything still `.open` (a WARC file,
 * the unsorted index), half-written temporary files, the index sort's runs.
 */
export function leftoverViolations(names: readonly string[]): string[] {
  return names.filter((n) => /\.open$|\.tmp$|\.run-\d+$/.test(n)).map((n) => `left over after the final run: ${n}`);
}
