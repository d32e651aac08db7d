/**
 * The crawl worker's memory once a large crawl is paused, once it finishes, and after a second one:
 * what a crawl that no longer runs keeps alive.
 *
 *   node --import tsx bench/worker-memory.ts [--pages 70000] [--pause-at 60000] [--concurrency 32] [--snapshots] [--env NAME=VALUE ...] [--out DIR]
 *
 * Starts the real cockpit (server.ts and its crawl worker, a fresh data folder) with the worker's
 * inspector on a free loopback port, serves the generated benchmark site (bench/support/site.ts) with
 * nginx, and through the API: crawls it with politeness off, pauses it at `--pause-at` pages,
 * resumes it to its end, then crawls it again as a second crawl. At the worker's start and after each
 * of those it records the worker's RSS and its heap after a forced GC (with external memory and
 * ArrayBuffers, the heap V8 keeps committed, and what of RSS is anonymous memory: malloc's and V8's,
 * rather than mapped files); `--snapshots` also writes a heap snapshot of the worker at each point and prints the
 * constructors that hold the most bytes (taking one raises RSS for good: compare RSS over runs
 * without it). `--env` sets a variable for the cockpit and its worker (MALLOC_ARENA_MAX=2, say, to
 * see how much of RSS is the allocator's). Results go to DIR/results.json (default
 * bench/work/worker-memory-<time>/).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { startCockpit, ADMIN_PASSWORD } from '../test/support/cockpit';
import { ApiClient } from '../test/support/api-client';
import { checkSitemapServed, generateSite, writeSitemap } from './support/site';
import { startNginx } from './support/nginx';
import { ProcessProbe, workerPidOf } from './support/soak-metrics';
import { summariseHeapSnapshot } from './support/inspector';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const PAGES = option('pages', 70_000);
const PAUSE_AT = option('pause-at', 60_000);
const CONCURRENCY = option('concurrency', 32);
const SNAPSHOTS = args.includes('--snapshots');
const EXTRA_ENV = Object.fromEntries(args.flatMap((a, i) => (args[i - 1] === '--env' ? [a.split(/=(.*)/s).slice(0, 2)] : [])));
const outIndex = args.indexOf('--out');
const OUT = outIndex >= 0 ? args[outIndex + 1]! : join('bench/work', `worker-memory-${new Date().toISOString().replace(/[:.]/g, '-')}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface CrawlView {
  id: number;
  status: string;
  stats?: { fetched?: number };
}

interface Point {
  label: string;
  fetched: number;
  rssMb: number;
  /** RSS that is anonymous memory (the heaps of V8 and malloc), not mapped files. */
  rssAnonMb: number;
  threads: number;
  heapMb?: number;
  /** Heap V8 keeps committed after that GC. */
  heapCommittedMb?: number;
  externalMb?: number;
  arrayBuffersMb?: number;
  /** Constructors holding the most bytes in the heap snapshot, when taken. */
  top?: { name: string; count: number; mb: number }[];
}

mkdirSync(OUT, { recursive: true });
const base = mkdtempSync(join(tmpdir(), 'tidemark-bench-worker-memory-'));
const site = generateSite(join(base, 'site'), PAGES);
const nginx = await startNginx({ root: site.dir, workDir: join(base, 'nginx') });
writeSitemap(site.dir, nginx.origin);
await checkSitemapServed(nginx.origin);
const cockpit = await startCockpit({ NODE_OPTIONS: '--inspect=127.0.0.1:0', TIDEMARK_DEMO_PORT: '0', ...EXTRA_ENV });
const probe = new ProcessProbe(cockpit.output);
console.log(`worker-memory: cockpit ${cockpit.url}, site ${nginx.origin} (${PAGES} pages), out ${OUT}`);
const api = await ApiClient.signedIn(cockpit.url, 'admin', ADMIN_PASSWORD);
const { id: icdId } = await api.json<{ id: number }>('POST', '/api/icds', {
  name: 'Worker memory',
  seeds: [`${nginx.origin}/`],
  scope: { maxPages: 10_000_000, maxPagesPerHost: 10_000_000, maxDepth: 1000 },
  politeness: { enabled: false, concurrency: CONCURRENCY },
});

const points: Point[] = [];
async function measure(label: string, fetched: number): Promise<void> {
  await sleep(3000); // the worker's tick, the batcher's flush and the run's end settle
  const pid = workerPidOf(cockpit.process.pid!);
  const s = await probe.sample(pid, cockpit.dataDir, 'worker');
  if (!s) throw new Error('no crawl worker to measure');
  const inspector = await probe.inspector(pid!);
  const heapCommittedMb = inspector ? +((await inspector.evaluate<number>('process.memoryUsage().heapTotal')) / 2 ** 20).toFixed(1) : undefined;
  const rssAnonMb = +(Number(/^RssAnon:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024).toFixed(1);
  const point: Point = { label, fetched, rssMb: s.rssMb, rssAnonMb, threads: s.threads, heapMb: s.heapMb, heapCommittedMb, externalMb: s.externalMb, arrayBuffersMb: s.arrayBuffersMb };
  if (SNAPSHOTS) {
    const path = join(OUT, `worker-${points.length}-${label.replace(/\W+/g, '-')}.heapsnapshot`);
    await inspector!.writeHeapSnapshot(path);
    point.top = [...summariseHeapSnapshot(readFileSync(path, 'utf8'))]
      .sort((a, b) => b[1].bytes - a[1].bytes)
      .slice(0, 15)
      .map(([name, v]) => ({ name, count: v.count, mb: +(v.bytes / 2 ** 20).toFixed(2) }));
  }
  points.push(point);
  console.log(
    `${label.padEnd(24)} fetched ${String(fetched).padStart(6)}  RSS ${point.rssMb} MB (anonymous ${rssAnonMb})  heap after GC ${point.heapMb} MB (committed ${heapCommittedMb})  external ${point.externalMb} MB  array buffers ${point.arrayBuffersMb} MB  threads ${point.threads}`,
  );
  for (const t of point.top ?? []) console.log(`    ${t.mb.toFixed(2).padStart(8)} MB ${String(t.count).padStart(8)}  ${t.name}`);
}

async function waitFor(id: number, done: (c: CrawlView) => boolean, what: string): Promise<CrawlView> {
  for (;;) {
    const c = await api.json<CrawlView>('GET', `/api/crawls/${id}`);
    if (done(c)) return c;
    if (['failed', 'stopped'].includes(c.status)) throw new Error(`crawl ${id} ${c.status} while waiting for ${what}`);
    await sleep(250);
  }
}

const control = (id: number, action: 'pause' | 'resume') => api.json('POST', `/api/crawls/${id}/control`, { action });
const fetchedOf = (c: CrawlView) => c.stats?.fetched ?? 0;

try {
  await cockpit.waitForOutput(/crawl worker \d+ ready/);
  await measure('worker started', 0);
  const first = await api.json<CrawlView>('POST', '/api/crawls', { icdId });
  await waitFor(first.id, (c) => fetchedOf(c) >= PAUSE_AT || c.status === 'finished', `${PAUSE_AT} pages`);
  await control(first.id, 'pause');
  const paused = await waitFor(first.id, (c) => c.status === 'paused', 'the pause');
  await measure('first crawl paused', fetchedOf(paused));
  await control(first.id, 'resume');
  const finished = await waitFor(first.id, (c) => c.status === 'finished', 'the end');
  await measure('first crawl finished', fetchedOf(finished));
  const second = await api.json<CrawlView>('POST', '/api/crawls', { icdId });
  const secondDone = await waitFor(second.id, (c) => c.status === 'finished', 'the second crawl');
  await measure('second crawl finished', fetchedOf(secondDone));
  writeFileSync(join(OUT, 'results.json'), JSON.stringify({ pages: PAGES, pauseAt: PAUSE_AT, concurrency: CONCURRENCY, env: EXTRA_ENV, snapshots: SNAPSHOTS, node: process.version, points }, null, 2));
} finally {
  probe.close();
  await cockpit.stop();
  await nginx.stop();
}
