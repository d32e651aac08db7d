/**
 * Fetch-only throughput: Tidemark's fetcher (raw heads, sha1 digest, body sink, deadlines) vs a
 * bare `undici.request` loop, and that loop plus the sha1 every WARC capture needs; 32 requests
 * in flight against a local node:http server (in a child process, so the server does not share
 * the client's event loop) serving 5,000 distinct 40 KB pages. Best of N rounds (the first warms up).
 * Run: npx tsx bench/fetch-speed.ts [--pages 5000] [--size 40960] [--inflight 32] [--rounds 3]
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { createFetcher } from '../worker/fetch';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const PAGES = arg('pages', 5000);
const SIZE = arg('size', 40 * 1024);
const INFLIGHT = arg('inflight', 32);
const ROUNDS = arg('rounds', 3);

const SERVER = `
const http = require('node:http');
const page = Buffer.alloc(${SIZE}, 'a');
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html', 'content-length': page.length });
  res.end(page);
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

async function startServer(): Promise<{ port: number; stop: () => void }> {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))));
  return { port, stop: () => child.kill() };
}

/** Runs `one(i)` for i in 0..n-1 with `inflight` at a time; returns pages per second. */
async function run(n: number, inflight: number, one: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: inflight }, async () => {
      while (next < n) await one(next++);
    }),
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return n / seconds;
}

const { port, stop } = await startServer();
const spoolDir = await mkdtemp(join(tmpdir(), 'tidemark-bench-fetch-'));
const base = `http://127.0.0.1:${port}`;
const limits = { connectTimeoutMs: 10_000, headersTimeoutMs: 20_000, totalTimeoutMs: 120_000, maxBodyBytes: 50 * 1024 * 1024, maxRetries: 0 };
const fetcher = createFetcher({ userAgent: 'Tidemark-bench/0.1 (+http://127.0.0.1/)', limits, spoolDir });
const agent = new Agent({ keepAliveTimeout: 60_000 });

const results: Record<string, number[]> = { tidemark: [], undici: [], 'undici+sha1': [] };
try {
  for (let round = 0; round < ROUNDS; round++) {
    results.undici!.push(
      await run(PAGES, INFLIGHT, async (i) => {
        const res = await request(`${base}/page/${i}`, { dispatcher: agent });
        const body = Buffer.from(await res.body.arrayBuffer());
        if (res.statusCode !== 200 || body.length !== SIZE) throw new Error(`undici: bad response ${res.statusCode} ${body.length}`);
      }),
    );
    results['undici+sha1']!.push(
      await run(PAGES, INFLIGHT, async (i) => {
        const res = await request(`${base}/page/${i}`, { dispatcher: agent });
        const hash = createHash('sha1');
        for await (const chunk of res.body) hash.update(chunk as Buffer);
        if (res.statusCode !== 200 || hash.digest().length !== 20) throw new Error('undici+sha1: bad response');
      }),
    );
    results.tidemark!.push(
      await run(PAGES, INFLIGHT, async (i) => {
        const o = await fetcher.fetch(`${base}/page/${i}`, { ip: '127.0.0.1' });
        if (!o.ok || o.exchange.body.kind !== 'memory' || o.exchange.body.bytes.length !== SIZE) throw new Error(`tidemark: bad outcome ${JSON.stringify(o.ok ? o.exchange.status : o.reason)}`);
      }),
    );
  }
} finally {
  await fetcher.close();
  await agent.close();
  stop();
  await rm(spoolDir, { recursive: true, force: true });
}

const best = (xs: number[]) => Math.max(...xs);
console.log(`${PAGES} pages × ${SIZE} B, ${INFLIGHT} in flight, ${ROUNDS} rounds (best / all), node ${process.version}`);
for (const [name, xs] of Object.entries(results)) console.log(`${name.padEnd(12)} ${best(xs).toFixed(0).padStart(6)} pages/s   [${xs.map((x) => x.toFixed(0)).join(', ')}]`);
console.log(`tidemark / undici: ${(best(results.tidemark!) / best(results.undici!)).toFixed(2)}`);
