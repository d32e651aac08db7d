/**
 * One way to a URL: its distance from the seeds (depth) and how many consecutive out-of-scope
 * links lead to it from the scope (scope.extraHops; null or undefined when none were counted, as
 * for a URL in the scope or found on no page).
 */
export interface PathToUrl {
  depth: number;
  hops?: number | null;
}

/**
 * Whether `found`, a new discovery of a URL still waiting in the queue, is a shorter way to it than
 * `stored`, the one it waits as, so the URL should wait as `found` does and its own links be judged
 * from there (maxDepth is the shortest distance from a seed, as wget's --level is for a
 * breadth-first crawl). Nearer the seeds, and through no more out-of-scope links: a path with more
 * of them would let fewer of the URL's links through the extra hops, so it is not taken even when
 * shorter (the two are properties of one path, not mixed from two).
 */
export function isShorterPath(stored: PathToUrl, found: PathToUrl): boolean {
  return found.depth < stored.depth && (found.hops ?? 0) <= (stored.hops ?? 0);
}
