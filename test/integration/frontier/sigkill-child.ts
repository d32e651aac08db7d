// Child process of the SIGKILL test: adds and completes URLs in a loop and prints each one only
// after the frontier acknowledged it, until it is killed.
import { SqliteFrontier } from '../../../worker/frontier';

const path = process.argv[2]!;
const f = SqliteFrontier.open(path);
f.openCrawl(1, { maxPages: 1e8, maxPagesPerHost: 1e8, politeness: { enabled: false, minDelayMs: 0, maxDelayMs: 0, delayFactor: 0 } });
let n = 0;
for (;;) {
  const batch = Array.from({ length: 10 }, () => {
    n += 1;
    return { url: `http://h${n % 7}.test/p${n}`, host: `h${n % 7}.test`, depth: 1, priority: (n % 10) / 10, kind: 'page' };
  });
  f.add(1, batch);
  process.stdout.write(`added ${n}\n`);
  for (let i = 0; i < 5; i++) {
    const lease = f.next();
    if (!lease) break;
    f.complete(lease, { status: 200, durationMs: 1 });
    process.stdout.write(`done ${lease.url}\n`);
  }
}
