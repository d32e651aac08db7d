/**
 * A loopback site of endless pages, each linking to the next, and an ICD that crawls it one page
 * every 150 ms or so: a crawl that keeps running for as long as a test needs it to.
 */
import type { RequestListener } from 'node:http';

/** Page n links to page n + 1, for ever. */
export const endlessChainSite: RequestListener = (req, res) => {
  const n = Number(/^\/page\/(\d+)$/.exec(new URL(req.url ?? '/', 'http://site').pathname)?.[1] ?? 0);
  res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Page ${n}</title><a href="/page/${n + 1}">next</a>`);
};

/** One page every 150 ms or so, for up to 1,000 pages: running throughout the test. */
export const endlessChainIcd = (origin: string, name = 'Endless chain') => ({
  name,
  seeds: [`${origin}/`],
  scope: { maxDepth: 1000 },
  politeness: { minDelayMs: 150, maxDelayMs: 200, delayFactor: 0, concurrency: 1, respectRobots: false },
  aah: { enabled: false },
});
