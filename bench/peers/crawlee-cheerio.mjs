// Crawlee's CheerioCrawler crawling the benchmark site: every same-origin link enqueued.
// Usage: node bench/peers/crawlee-cheerio.mjs ORIGIN [maxConcurrency] [--memory]
// Storage as Crawlee ships it: the request queue and its state persisted under ./storage (the working directory),
// so that a crawl can resume, as Tidemark's frontier does. --memory keeps them in memory only (persistStorage:
// false), Crawlee's fastest setting. Either way all 32 requests run from the start and the autoscaler may use half
// the machine's memory: nothing holds Crawlee back below its configured concurrency.
import { CheerioCrawler, Configuration, log } from '@crawlee/cheerio';

const [origin, concurrency = '32', ...flags] = process.argv.slice(2);
const maxConcurrency = Number(concurrency);
log.setLevel(log.LEVELS.WARNING);
const config = new Configuration({ purgeOnStart: true, availableMemoryRatio: 0.5, ...(flags.includes('--memory') ? { persistStorage: false } : {}) });
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
