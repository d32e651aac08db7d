/**
 * A copy of `s` that shares no memory with it. Text and references come out of the HTML parser as
 * slices of the page, and V8 keeps a slice (and a concatenation holding one) pointing at the whole
 * page: anything kept longer than the page's parse would hold the page alive. As a cache key it
 * held a 40 KB page per entry (the 20,000-page benchmark's peak RSS rose from ~305 to 379 MB); as
 * a page's title, kept on the crawl item until its commit, every page in flight.
 */
export function ownCopy(s: string): string {
  return Buffer.from(s, 'utf8').toString('utf8');
}
