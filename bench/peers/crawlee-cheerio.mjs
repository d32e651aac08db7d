// Crawlee's CheerioCrawler crawling the benchmark site: every same-origin link enqueued, in-memory storage.
// Usage: node bench/peers/crawlee-cheerio.mjs ORIGIN [maxConcurrency]
import { CheerioCrawler, Configuration, log } from '@crawlee/cheerio';

const origin = process.argv[2];
const maxConcurrency = Number(process.argv[3] ?? 32);
log.setLevel(log.LEVELS.WARNING);
const config = new Configuration({ persistStorage: false, purgeOnStart: true, availableMemoryRatio: 0.5 });
let pages = 0;
const crawler = new CheerioCrawler(
  {
    maxConcurrency,
    minConcurrency: maxConcurrency,
    maxRequestRetries: 1,
    maxRequestsPerCrawl: 1_000_000,
    additionalMimeTypes: ['text/css', 'application/javascript', 'image/png', 'application/xml', 'text/plain'],
    async requestHandler({ enqueueLinks }) {
      pages++;
      await enqueueLinks({ strategy: 'same-origin' });
    },
  },
  config,
);
const started = performance.now();
await crawler.run([origin + '/']);
const s = (performance.now() - started) / 1000;
console.log(JSON.stringify({ pages, seconds: s, pagesPerSecond: pages / s }));
