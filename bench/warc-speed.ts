// WARC writing speed: captures/s and CPU ms per capture (request + response records, gzip) for
// (a) warcio's serializer (WARCRecord.create + WARCSerializer.serialize, gzip, sha1 base32) and
// (b) Tidemark's WarcWriter (worker-thread gzip pool) at several gzip levels; optionally (--e2e)
// end to end over loopback: fetch (undici) + link extraction (htmlparser2) + each writer, with the
// origin server in a child process.
// Run: npx tsx bench/warc-speed.ts [--n 5000] [--levels 1,3,6] [--size 40000] [--e2e] [--concurrency 16] [--pages dir]
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { Parser } from 'htmlparser2';
import { gzip as libdeflateGzip } from 'libdeflate';
import { Agent, request } from 'undici';
import { WARCRecord, WARCSerializer } from 'warcio';
import type { HttpExchange } from '../worker/capture';
import { sha1Digest, WarcWriter } from '../worker/warc';
import { seededRandom } from './focused/random';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '5000' },
    levels: { type: 'string', default: '1,3,6' },
    size: { type: 'string', default: '40000' },
    concurrency: { type: 'string', default: '16' },
    e2e: { type: 'boolean', default: false },
    serve: { type: 'boolean', default: false },
    pages: { type: 'string' },
  },
});
const N = Number(values.n);
const SIZE = Number(values.size);
const CONCURRENCY = Number(values.concurrency);

// Words of 1-4 common syllables: about as redundant as prose, so pages gzip about as real ones do.
const SYLLABLES = 'the,an,ing,er,on,re,in,ed,ar,or,al,es,ti,ve,st,ch,ou,en,it,ly,co,de,ma,pro,con,for,com,sta,tion,ment'.split(',');
const VOCABULARY = Array.from({ length: 4000 }, (_, k) => {
  const r = seededRandom(k + 7);
  return Array.from({ length: 1 + Math.floor(r() * 4) }, () => SYLLABLES[Math.floor(r() * SYLLABLES.length)]).join('');
});

/** A ~SIZE-byte HTML page of Zipf-ish words and links: compresses about as real pages do. */
function page(i: number): Buffer {
  const rnd = seededRandom(i + 1);
  const word = () => VOCABULARY[Math.floor(Math.pow(rnd(), 2) * VOCABULARY.length)];
  let html = `<!doctype html><html><head><title>Page ${i}</title><meta charset="utf-8"></head><body>\n`;
  while (html.length < SIZE) {
    let p = `<div class="post" id="post-${Math.floor(rnd() * 1e6)}"><p class="text">`;
    for (let k = 0; k < 25; k++) p += word() + ' ';
    html += `${p}<a class="nav-link" href="/p/${Math.floor(rnd() * N)}">${word()} ${word()}</a></p>` +
      `<span class="meta">posted by <a href="/u/${word()}">${word()}</a></span></div>\n`;
  }
  return Buffer.from(html + '</body></html>\n');
}

function exchangeFor(i: number, url: string, body: Buffer, rawHead?: string): HttpExchange {
  const u = new URL(url);
  return {
    url, date: new Date(), ip: '127.0.0.1', status: 200, body: { kind: 'memory', bytes: body },
    requestHead: Buffer.from(`GET ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nUser-Agent: tidemark-bench\r\n\r\n`),
    responseHead: Buffer.from(rawHead ?? `HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: ${body.length}\r\n\r\n`, 'latin1'),
    headers: { 'content-type': 'text/html; charset=utf-8' },
    payloadDigest: sha1Digest(body), truncated: null,
  };
}

/** Writes request + response with warcio, as a crawler using it would. */
async function warcioCapture(fd: number, ex: HttpExchange): Promise<void> {
  const body = (ex.body as { bytes: Buffer }).bytes;
  const opts = { gzip: true, digest: { algo: 'sha-1' as const, prefix: 'sha1:', base32: true } };
  const response = WARCRecord.create(
    { url: ex.url, date: ex.date.toISOString(), type: 'response', warcVersion: 'WARC/1.1', statusline: 'HTTP/1.1 200 OK', httpHeaders: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': String(body.length) } },
    [body],
  );
  const req = WARCRecord.create(
    { url: ex.url, date: ex.date.toISOString(), type: 'request', warcVersion: 'WARC/1.1', statusline: `GET ${new URL(ex.url).pathname} HTTP/1.1`, httpHeaders: { Host: new URL(ex.url).host } },
    [],
  );
  writeSync(fd, await WARCSerializer.serialize(response, opts));
  writeSync(fd, await WARCSerializer.serialize(req, opts));
}

interface Sink {
  write(ex: HttpExchange): Promise<void>;
  close(): Promise<void>;
}

async function makeSink(kind: string, dir: string): Promise<Sink> {
  if (kind === 'warcio') {
    const fd = openSync(join(dir, 'warcio.warc.gz'), 'w');
    return { write: (ex) => warcioCapture(fd, ex), close: async () => closeSync(fd) };
  }
  const writer = new WarcWriter({ dir, crawlId: 'bench', software: 'Tidemark bench', robotsPolicy: 'obey', userAgent: 'bench', gzipLevel: Number(kind.slice(1)) });
  await writer.open();
  return { write: async (ex) => void (await writer.writeCapture(ex)), close: () => writer.close() };
}

function dirBytes(dir: string): number {
  return readdirSync(dir).filter((f) => f.includes('.warc')).reduce((s, f) => s + statSync(join(dir, f)).size, 0);
}

/** Runs `work(i)` for i < N with `concurrency` loops; returns wall, CPU and main-loop busy time. */
async function measure(concurrency: number, work: (i: number) => Promise<void>) {
  const cpu0 = process.cpuUsage();
  const elu0 = performance.eventLoopUtilization();
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < N) await work(next++);
  }));
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const elu = performance.eventLoopUtilization(elu0);
  return { wall, cpuMs: (cpu.user + cpu.system) / 1000, mainMs: elu.active };
}

function report(label: string, m: { wall: number; cpuMs: number; mainMs: number }, bytes?: number, rawBytes?: number) {
  const ratio = bytes && rawBytes ? ` ratio ${(rawBytes / bytes).toFixed(2)}` : '';
  console.log(
    `${label.padEnd(34)} ${(N / (m.wall / 1000)).toFixed(0).padStart(6)} captures/s  ` +
      `CPU ${(m.cpuMs / N).toFixed(3)} ms/capture  main thread ${(m.mainMs / N).toFixed(3)} ms/capture${ratio}`,
  );
}

async function serialiseOnly(kinds: string[]) {
  console.log(`# serialisation only: ${N} in-memory exchanges of ~${SIZE} bytes (request + response each)`);
  const pages = Array.from({ length: 200 }, (_, i) => page(i));
  const rawBytes = N * (pages[0].length + 200);
  for (const kind of kinds) {
    const dir = mkdtempSync(join(tmpdir(), 'warc-bench-'));
    const sink = await makeSink(kind, dir);
    // A unique first line per page: 200 bodies reused, but no two payloads alike (no revisits).
    const exchanges = Array.from({ length: N }, (_, i) =>
      exchangeFor(i, `http://127.0.0.1/p/${i}`, Buffer.concat([Buffer.from(`<!-- ${i} -->\n`), pages[i % 200]])));
    const m = await measure(kind === 'warcio' ? 1 : 64, (i) => sink.write(exchanges[i]));
    await sink.close();
    report(kind === 'warcio' ? 'warcio serializer' : `WarcWriter gzip ${kind.slice(1)}`, m, dirBytes(dir), rawBytes);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Origin server (child process): /p/<i> serves page(i). */
function serve() {
  const server = createServer((req, res) => {
    const i = Number(req.url?.split('/')[2] ?? 0);
    const body = Buffer.concat([Buffer.from(`<!-- ${i} -->\n`), page(i % 500)]);
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as { port: number }).port}\n`));
}

async function endToEnd(kinds: string[]) {
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1], '--serve', '--size', String(SIZE), '--n', String(N)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => child.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
  const agent = new Agent({ connections: CONCURRENCY, pipelining: 1 });
  console.log(`# end to end over loopback: ${N} pages, ${CONCURRENCY} in flight, origin in a child process`);
  async function fetchOne(i: number): Promise<{ url: string; body: Buffer; head: string }> {
    const url = `http://127.0.0.1:${port}/p/${i}`;
    const res = await request(url, { dispatcher: agent });
    const body = Buffer.from(await res.body.arrayBuffer());
    let head = `HTTP/1.1 ${res.statusCode} OK\r\n`;
    for (const [k, v] of Object.entries(res.headers)) head += `${k}: ${v}\r\n`;
    return { url, body, head: head + '\r\n' };
  }
  function links(body: Buffer): number {
    let n = 0;
    const parser = new Parser({ onopentag: (name, attrs) => { if (name === 'a' && attrs.href) n++; } });
    parser.end(body.toString('utf8'));
    return n;
  }
  await measure(CONCURRENCY, async (i) => void (await fetchOne(i))); // warm up
  report('fetch only', await measure(CONCURRENCY, async (i) => void createHash('sha1').update((await fetchOne(i)).body)));
  report('fetch + parse', await measure(CONCURRENCY, async (i) => void links((await fetchOne(i)).body)));
  for (const kind of kinds) {
    const dir = mkdtempSync(join(tmpdir(), 'warc-bench-'));
    const sink = await makeSink(kind, dir);
    const m = await measure(CONCURRENCY, async (i) => {
      const { url, body, head } = await fetchOne(i);
      links(body);
      await sink.write(exchangeFor(i, url, body, head));
    });
    await sink.close();
    report(`fetch + parse + ${kind === 'warcio' ? 'warcio' : `WarcWriter gzip ${kind.slice(1)}`}`, m);
    rmSync(dir, { recursive: true, force: true });
  }
  await agent.close();
  child.kill();
}

/**
 * gzip alone on one thread, per level, with node:zlib and with libdeflate (what the writer's threads
 * use for records in memory): the CPU cost and size that decide the library and the default level.
 * `--pages dir` reads the pages from a folder (e.g. the throughput benchmark's generated site).
 */
function gzipLevels(levels: number[]) {
  const pages = values.pages ? pagesIn(values.pages, Math.min(N, 1000)) : Array.from({ length: Math.min(N, 1000) }, (_, i) => page(i));
  console.log(`# gzip alone, one thread, ${pages.length} pages (${values.pages ?? 'generated'})`);
  const raw = pages.reduce((s, p) => s + p.length, 0);
  const libraries: [string, (p: Buffer, level: number) => Uint8Array][] = [
    ['node:zlib', (p, level) => gzipSync(p, { level })],
    ['libdeflate', (p, level) => libdeflateGzip(p, level)],
  ];
  for (const [name, gzip] of libraries) {
    for (const level of levels) {
      for (const p of pages.slice(0, 50)) gzip(p, level); // warm up
      const t0 = process.cpuUsage();
      let out = 0;
      for (const p of pages) out += gzip(p, level).length;
      const cpu = process.cpuUsage(t0);
      console.log(`${name} level ${level}: ${((cpu.user + cpu.system) / 1000 / pages.length).toFixed(3)} CPU ms/page, ratio ${(raw / out).toFixed(2)}`);
    }
  }
}

/** Up to `n` HTML files under `dir`. */
function pagesIn(dir: string, n: number): Buffer[] {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html')).slice(0, n);
  return files.map((f) => readFileSync(join(dir, f)));
}

if (values.serve) {
  serve();
} else {
  const kinds = ['warcio', ...values.levels.split(',').map((l) => `L${l}`)];
  gzipLevels([1, 3, 6, 9]);
  await serialiseOnly(kinds);
  if (values.e2e) await endToEnd(kinds);
}
