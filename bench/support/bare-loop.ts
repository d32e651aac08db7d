// The ceiling probe: a bare undici loop fetching a fixed URL list with N requests in flight.
//   --mode fetch   : fetch and read the body only
//   --mode parse   : + a full htmlparser2 parse collecting hrefs (what a crawler must do at least)
//   --mode warcio  : + parse + warcio's WARCRecord/WARCSerializer (gzip, sha-1 digests) into one .warc.gz
// Usage: tsx bench/support/bare-loop.ts --urls FILE --mode MODE [--inflight 32] [--out FILE.warc.gz]
import { readFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { Parser } from 'htmlparser2';
import { WARCRecord, WARCSerializer } from 'warcio';

const { values } = parseArgs({
  options: { urls: { type: 'string' }, mode: { type: 'string', default: 'fetch' }, inflight: { type: 'string', default: '32' }, out: { type: 'string', default: '/dev/null' } },
});
const urls = readFileSync(values.urls!, 'utf8').split('\n').filter(Boolean);
const mode = values.mode!;
const inflight = Number(values.inflight);
const dispatcher = new Agent({ connections: inflight, pipelining: 1, keepAliveTimeout: 60_000 });
const fd = mode === 'warcio' ? openSync(values.out!, 'w') : -1;
const opts = { gzip: true, digest: { algo: 'sha-1' as const, prefix: 'sha1:', base32: true } };
let next = 0;
let bytes = 0;
let links = 0;

async function one(url: string): Promise<void> {
  const res = await request(url, { dispatcher, headers: { 'user-agent': 'tidemark-bench-bare' } });
  const body = Buffer.from(await res.body.arrayBuffer());
  bytes += body.length;
  const isHtml = String(res.headers['content-type'] ?? '').includes('html');
  if (mode !== 'fetch' && isHtml) {
    const p = new Parser({ onopentag: (name, attrs) => { if (attrs.href || attrs.src) links++; } }, { decodeEntities: true });
    p.end(body.toString('utf8'));
  }
  if (mode === 'warcio') {
    const date = new Date().toISOString();
    const httpHeaders: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) httpHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
    const response = WARCRecord.create({ url, date, type: 'response', warcVersion: 'WARC/1.1', statusline: `HTTP/1.1 ${res.statusCode} OK`, httpHeaders }, [body]);
    const u = new URL(url);
    const req = WARCRecord.create({ url, date, type: 'request', warcVersion: 'WARC/1.1', statusline: `GET ${u.pathname} HTTP/1.1`, httpHeaders: { Host: u.host, 'User-Agent': 'tidemark-bench-bare' } }, []);
    writeSync(fd, await WARCSerializer.serialize(response, opts));
    writeSync(fd, await WARCSerializer.serialize(req, opts));
  }
}

const started = performance.now();
await Promise.all(
  Array.from({ length: inflight }, async () => {
    while (next < urls.length) await one(urls[next++]);
  }),
);
if (fd >= 0) closeSync(fd);
const s = (performance.now() - started) / 1000;
console.log(JSON.stringify({ mode, pages: urls.length, bytes, links, seconds: s, pagesPerSecond: urls.length / s }));
await dispatcher.close();
