import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { WARCParser } from 'warcio';
import { signedInAdmin, startCockpit } from '../../support/cockpit';
import { ApiClient } from '../../support/api-client';
import { readZip } from '../../support/read-wacz';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Written here rather than imported from worker/warc so a bug there cannot hide itself.
function sha1Base32(bytes: Uint8Array): string {
  const digest = createHash('sha1').update(bytes).digest();
  const bits = [...digest].map((b) => b.toString(2).padStart(8, '0')).join('');
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let out = '';
  for (let i = 0; i < bits.length; i += 5) out += alphabet[parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
  return `sha1:${out}`;
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    assert.ok(eol >= 0, 'chunk size line');
    const size = parseInt(body.subarray(at, eol).toString('latin1').split(';')[0]!.trim(), 16);
    assert.ok(Number.isFinite(size), 'chunk size is hex');
    if (size === 0) return Buffer.concat(parts);
    parts.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/** The HTTP entity body of a response block: after the head, chunking removed, content coding kept. */
function httpPayload(block: Buffer): Buffer {
  const end = block.indexOf('\r\n\r\n');
  assert.ok(end >= 0, 'HTTP head ends');
  const head = block.subarray(0, end).toString('latin1');
  const body = block.subarray(end + 4);
  return /^transfer-encoding:.*chunked/im.test(head) ? dechunk(body) : body;
}

interface ExportView {
  id: number;
  status: string;
  error: string | null;
  files: { name: string; bytes: number; sha256: string }[];
  selection: Record<string, unknown> | null;
  format: string;
}

/** Waits for a requested export to end; asserts it ended as `expected`. */
async function finishedExport(api: ApiClient, created: Response, expected: 'done' | 'failed' = 'done'): Promise<ExportView> {
  assert.equal(created.status, 201);
  let exp = (await created.json()) as ExportView;
  for (const end = Date.now() + 60_000; Date.now() < end && !['done', 'failed'].includes(exp.status); await sleep(200)) {
    exp = await api.json<ExportView>('GET', `/api/exports/${exp.id}`);
  }
  assert.equal(exp.status, expected, `export ${exp.status}: ${exp.error}`);
  return exp;
}

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Downloads one file an export lists, checking its size and sha256. */
async function download(api: ApiClient, exp: ExportView, file: ExportView['files'][number]): Promise<Buffer> {
  const res = await api.request('GET', `/api/exports/${exp.id}/files/${encodeURIComponent(file.name)}`);
  assert.equal(res.status, 200, file.name);
  assert.match(res.headers.get('content-disposition') ?? '', /^attachment/);
  const bytes = Buffer.from(await res.arrayBuffer());
  assert.equal(res.headers.get('content-length'), String(bytes.length));
  assert.equal(bytes.length, file.bytes, `${file.name} size`);
  assert.equal(sha256Hex(bytes), file.sha256, `${file.name} sha256`);
  return bytes;
}

/** Downloads every file an export lists (WARC files and their index). */
async function downloadAll(api: ApiClient, exp: ExportView): Promise<Map<string, Buffer>> {
  assert.ok(exp.files.some((f) => f.name.endsWith('.warc.gz')), 'the export lists WARC files');
  assert.ok(exp.files.some((f) => f.name === 'index.cdxj'), 'the export lists the CDXJ index');
  const downloads = new Map<string, Buffer>();
  for (const file of exp.files) downloads.set(file.name, await download(api, exp, file));
  return downloads;
}

/**
 * Downloads a WACZ export (its one file) and checks the package: every entry stored, every other
 * file listed in datapackage.json with its size and sha256, the digest file naming the manifest's
 * hash. Returns its WARC files and index (as `index.cdxj`), ready for readBack and checkIndex, and
 * the URLs its pages.jsonl lists.
 */
async function downloadWacz(api: ApiClient, exp: ExportView): Promise<{ downloads: Map<string, Buffer>; pages: string[]; titles: (string | undefined)[]; texts: (string | undefined)[]; hasText: boolean; manifest: Record<string, unknown> }> {
  assert.equal(exp.files.length, 1, 'one file');
  assert.match(exp.files[0]!.name, /\.wacz$/);
  const entries = await readZip(await download(api, exp, exp.files[0]!));
  for (const [path, entry] of entries) assert.ok(entry.stored, `${path} is stored, not deflated`);
  const manifestBytes = entries.get('datapackage.json')!.bytes;
  const manifest = JSON.parse(manifestBytes.toString('utf8')) as { profile: string; wacz_version: string; resources: { path: string; name: string; hash: string; bytes: number }[] };
  assert.equal(manifest.profile, 'data-package');
  assert.equal(manifest.wacz_version, '1.1.1');
  const digest = JSON.parse(entries.get('datapackage-digest.json')!.bytes.toString('utf8')) as { path: string; hash: string };
  assert.deepEqual(digest, { path: 'datapackage.json', hash: `sha256:${sha256Hex(manifestBytes)}` });
  const listed = manifest.resources.map((r) => r.path).sort();
  assert.deepEqual(listed, [...entries.keys()].filter((p) => !p.startsWith('datapackage')).sort(), 'the manifest lists every file but itself and its digest');
  for (const r of manifest.resources) {
    const bytes = entries.get(r.path)!.bytes;
    assert.equal(r.bytes, bytes.length, `${r.path} size`);
    assert.equal(r.hash, `sha256:${sha256Hex(bytes)}`, `${r.path} sha256`);
    assert.equal(r.name, r.path.split('/').pop());
  }
  const downloads = new Map<string, Buffer>();
  for (const [path, entry] of entries) if (path.startsWith('archive/')) downloads.set(path.slice('archive/'.length), entry.bytes);
  downloads.set('index.cdxj', entries.get('indexes/index.cdx')!.bytes);
  const [format, ...pageLines] = entries.get('pages/pages.jsonl')!.bytes.toString('utf8').split('\n').filter(Boolean);
  assert.equal(JSON.parse(format!).format, 'json-pages-1.0');
  const pages = pageLines.map((l) => JSON.parse(l) as { url: string; ts: string; title?: string; text?: string });
  for (const p of pages) assert.match(p.ts, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, 'an RFC 3339 date');
  return { downloads, pages: pages.map((p) => p.url), titles: pages.map((p) => p.title), texts: pages.map((p) => p.text), hasText: JSON.parse(format!).hasText === true, manifest };
}

/**
 * Reads every record of the downloaded WARC files with warcio, checking each digest and that each
 * request has its response; returns the URIs of the responses and revisits whose payload is there.
 */
async function readBack(downloads: Map<string, Buffer>): Promise<{ records: number; archived: Set<string>; firstWarcinfo: string }> {
  const archived = new Set<string>();
  let records = 0;
  let firstWarcinfo = '';
  for (const [name, bytes] of downloads) {
    if (!name.endsWith('.warc.gz')) continue;
    const ids = new Set<string>();
    const requestPartners: string[] = [];
    const parser = new WARCParser(Readable.from([bytes]), { parseHttp: false });
    for await (const record of parser) {
      records++;
      const where = `${name} record at ${parser.offset}`;
      const type = record.warcType;
      const block = Buffer.from(await record.readFully(false));
      if (type === 'warcinfo' && !firstWarcinfo) firstWarcinfo = block.toString('utf8');
      ids.add(record.warcHeader('WARC-Record-ID')!);
      assert.equal(block.length, Number(record.warcContentLength), `${where}: Content-Length`);
      const blockDigest = record.warcHeader('WARC-Block-Digest');
      assert.ok(blockDigest, `${where}: has WARC-Block-Digest`);
      assert.equal(sha1Base32(block), blockDigest, `${where}: WARC-Block-Digest`);
      if (type === 'request') requestPartners.push(record.warcHeader('WARC-Concurrent-To')!);
      if (type === 'response') {
        const payloadDigest = record.warcHeader('WARC-Payload-Digest');
        assert.ok(payloadDigest, `${where}: response has WARC-Payload-Digest`);
        assert.equal(sha1Base32(httpPayload(block)), payloadDigest, `${where}: WARC-Payload-Digest`);
        archived.add(record.warcTargetURI!);
      }
      if (type === 'revisit') archived.add(record.warcTargetURI!);
    }
    for (const id of requestPartners) assert.ok(ids.has(id), `${name}: a request's response ${id} is in the file`);
  }
  return { records, archived, firstWarcinfo };
}

/** Checks that every CDXJ line points at a response or revisit of its URL; returns the line count. */
async function checkIndex(downloads: Map<string, Buffer>): Promise<number> {
  const lines = downloads.get('index.cdxj')!.toString('utf8').split('\n').filter(Boolean);
  for (const line of lines) {
    const json = JSON.parse(line.slice(line.indexOf('{'))) as { url: string; offset: string; length: string; filename: string };
    const warc = downloads.get(json.filename);
    assert.ok(warc, `${json.filename} was exported`);
    const member = warc.subarray(Number(json.offset), Number(json.offset) + Number(json.length));
    const record = await new WARCParser(Readable.from([member]), { parseHttp: false }).parse();
    assert.ok(record, `a record at ${json.filename}:${json.offset}`);
    assert.ok(['response', 'revisit'].includes(record.warcType!), `${json.url}: ${record.warcType}`);
    assert.equal(record.warcTargetURI, json.url, `the record at ${json.offset} is for ${json.url}`);
  }
  return lines.length;
}

test('the seeded Demo crawl runs through the API, exports whole and as a selected collection, and every WARC record reads back with valid digests', { timeout: 300_000 }, async () => {
  const cockpit = await startCockpit();
  try {
    const api = await signedInAdmin(cockpit);

    const icds = await api.json<{ id: number; name: string }[]>('GET', '/api/icds');
    const demo = icds.find((i) => i.name === 'Demo');
    assert.ok(demo, 'a fresh database has the Demo ICD');
    const crawl = await api.json<{ id: number }>('POST', '/api/crawls', { icdId: demo.id });

    let status = '';
    let pages = 0;
    for (const end = Date.now() + 120_000; Date.now() < end; await sleep(250)) {
      const view = await api.json<{ status: string; stats: { fetched?: number } }>('GET', `/api/crawls/${crawl.id}`);
      status = view.status;
      pages = view.stats.fetched ?? 0;
      if (['finished', 'failed', 'stopped'].includes(status)) break;
    }
    assert.equal(status, 'finished');
    const captures = await api.json<{ total: number; items: { url: string; mime: string | null; status: number }[] }>('GET', `/api/crawls/${crawl.id}/captures?pageSize=500`);
    assert.ok(captures.total >= 30, `the demo site has a few dozen pages (captured ${captures.total}, stats ${pages})`);
    // A first crawl's log shows no error: the demo answers every URL it asks for, /favicon.ico included.
    assert.deepEqual(captures.items.filter((c) => c.status >= 400).map((c) => `${c.status} ${c.url}`), []);

    // The Demo ICD is focused, so `?sort=score` lists the most relevant captures first.
    const ranked = await api.json<{ items: { score: number | null }[] }>('GET', `/api/crawls/${crawl.id}/captures?sort=score&pageSize=500`);
    const scores = ranked.items.map((c) => c.score ?? -Infinity);
    assert.ok(scores.some((s) => s > 0), 'some captures are scored');
    for (let i = 1; i < scores.length; i++) assert.ok(scores[i - 1]! >= scores[i]!, 'ordered by score, highest first');

    const exp = await finishedExport(api, await api.request('POST', `/api/crawls/${crawl.id}/exports`));
    assert.equal(exp.selection, null, 'the whole crawl');
    const downloads = await downloadAll(api, exp);
    const { records, archived } = await readBack(downloads);
    assert.ok(records > captures.total, 'warcinfo, requests and responses were read');
    for (const c of captures.items) assert.ok(archived.has(c.url), `${c.url} is archived`);
    const lines = await checkIndex(downloads);
    assert.ok(lines >= captures.total - 5, 'the index has a line per capture');

    // A collection: only the HTML pages under /wildlife/, in WARC files of its own.
    const selection = { mimeTypes: ['text/html'], urlContains: '/wildlife/' };
    const chosen = (await api.json<{ items: { url: string; mime: string | null; recordType: string }[] }>('GET', `/api/crawls/${crawl.id}/captures?q=/wildlife/&pageSize=500`)).items.filter((c) => c.mime === 'text/html');
    assert.ok(chosen.length >= 3, 'the demo site has a few wildlife pages');
    // Counted before it is requested; an invalid selection is refused naming its field.
    const preview = await api.json<{ captures: number; bytes: number }>('GET', `/api/crawls/${crawl.id}/exports/preview?selection=${encodeURIComponent(JSON.stringify(selection))}`);
    assert.equal(preview.captures, chosen.length);
    assert.ok(preview.bytes > 0);
    const badPreview = await api.request('GET', `/api/crawls/${crawl.id}/exports/preview?selection=${encodeURIComponent('{"mimeTypes":"text/html"}')}`);
    assert.equal(badPreview.status, 400);
    assert.match(JSON.stringify(await badPreview.json()), /mimeTypes/);
    const collection = await finishedExport(api, await api.request('POST', `/api/crawls/${crawl.id}/exports`, { selection }));
    assert.deepEqual(collection.selection, { hosts: [], mimeTypes: ['text/html'], statusClasses: [], urlContains: '/wildlife/', coherence: [], requisites: false });
    assert.ok(collection.files.every((f) => f.name === 'index.cdxj' || f.name.startsWith(`collection-${crawl.id}-${collection.id}-`)), 'files of its own');
    const part = await downloadAll(api, collection);
    const got = await readBack(part);
    assert.deepEqual([...got.archived].sort(), chosen.map((c) => c.url).sort(), 'exactly the selected pages, each once');
    assert.match(got.firstWarcinfo, /description: Tidemark crawl \d+, export \d+: MIME types text\/html; URLs containing "\/wildlife\/"/);
    assert.equal(await checkIndex(part), chosen.length);
    assert.ok(part.get(collection.files[0]!.name)!.length < downloads.get(exp.files[0]!.name)!.length, 'smaller than the whole crawl');

    // The same two as WACZ packages: the whole crawl, then the collection.
    const wholeWacz = await finishedExport(api, await api.request('POST', `/api/crawls/${crawl.id}/exports`, { format: 'wacz', pageText: true }));
    assert.equal(wholeWacz.format, 'wacz');
    const whole = await downloadWacz(api, wholeWacz);
    assert.deepEqual([...whole.downloads.keys()].sort(), [...downloads.keys()].sort(), 'the crawl\'s WARC files and index');
    for (const [name, bytes] of downloads) assert.ok(whole.downloads.get(name)!.equals(bytes), `${name} packaged byte for byte`);
    const htmlPages = captures.items.filter((c) => (c.mime ?? '').startsWith('text/html') && Math.floor(c.status / 100) === 2).map((c) => c.url);
    assert.deepEqual([...whole.pages].sort(), [...htmlPages].sort(), 'pages.jsonl lists the HTML pages');
    assert.equal(whole.pages[0], 'http://127.0.0.1:' + new URL(whole.pages[0]!).port + '/', 'the seed first');
    assert.equal(whole.manifest.mainPageUrl, whole.pages[0]);
    assert.ok(whole.titles.every((t) => t?.endsWith(' — Tidemark Bay')), 'each page listed with its title');
    // Asked with page text: each page's visible text, which ReplayWeb.page searches.
    assert.equal(whole.hasText, true);
    assert.match(whole.texts[0]!, /Tidemark Bay is a small harbour town on a tidal estuary/);
    assert.ok(whole.texts.every((t) => typeof t === 'string' && t.length > 20 && !t.includes('<')), 'text, not markup');
    const partWacz = await finishedExport(api, await api.request('POST', `/api/crawls/${crawl.id}/exports`, { selection, format: 'wacz' }));
    const partPackage = await downloadWacz(api, partWacz);
    assert.equal(partPackage.hasText, false, 'no page text unless asked for');
    assert.ok(partPackage.texts.every((t) => t === undefined));
    assert.deepEqual([...(await readBack(partPackage.downloads)).archived].sort(), chosen.map((c) => c.url).sort(), 'the collection\'s pages, each once');
    assert.equal(await checkIndex(partPackage.downloads), chosen.length);
    assert.deepEqual([...partPackage.pages].sort(), chosen.map((c) => c.url).sort());
    assert.deepEqual(readdirSync(join(cockpit.dataDir, 'exports', String(partWacz.id))), [partWacz.files[0]!.name], 'only the package is kept');
    // A replay tool reads a WACZ by ranges.
    const waczUrl = `/api/exports/${partWacz.id}/files/${encodeURIComponent(partWacz.files[0]!.name)}`;
    const waczBytes = await download(api, partWacz, partWacz.files[0]!);
    const ranged = await api.request('GET', waczUrl, undefined, { range: 'bytes=10-109' });
    assert.equal(ranged.status, 206);
    assert.equal(ranged.headers.get('content-range'), `bytes 10-109/${waczBytes.length}`);
    assert.ok(Buffer.from(await ranged.arrayBuffer()).equals(waczBytes.subarray(10, 110)));
    const tail = await api.request('GET', waczUrl, undefined, { range: 'bytes=-22' });
    assert.ok(Buffer.from(await tail.arrayBuffer()).equals(waczBytes.subarray(-22)), 'the last 22 bytes: the end of the central directory');
    const beyond = await api.request('GET', waczUrl, undefined, { range: `bytes=${waczBytes.length}-` });
    assert.equal(beyond.status, 416);
    assert.equal(beyond.headers.get('content-range'), `bytes */${waczBytes.length}`);
    const badFormat = await api.request('POST', `/api/crawls/${crawl.id}/exports`, { format: 'zip' });
    assert.equal(badFormat.status, 400);
    assert.match(JSON.stringify(await badFormat.json()), /format/);
    const textInWarc = await api.request('POST', `/api/crawls/${crawl.id}/exports`, { pageText: true });
    assert.equal(textInWarc.status, 400);
    assert.match(JSON.stringify(await textInWarc.json()), /pageText.*WACZ|WACZ.*pageText/s);

    // An invalid selection is refused naming its field; one that matches nothing fails the export, saying why.
    const refused = await api.request('POST', `/api/crawls/${crawl.id}/exports`, { selection: { statusClasses: ['6xx'] } });
    assert.equal(refused.status, 400);
    assert.match(JSON.stringify(await refused.json()), /statusClasses/);
    const empty = await finishedExport(api, await api.request('POST', `/api/crawls/${crawl.id}/exports`, { selection: { urlContains: 'no-such-page' } }), 'failed');
    assert.match(empty.error ?? '', /No capture matches the selection \(URLs containing "no-such-page"; with the pages' requisites\)/);

    // Deleting the crawl deletes its collections' files and its WACZ packages too.
    const collectionDir = join(cockpit.dataDir, 'exports', String(collection.id));
    const waczDir = join(cockpit.dataDir, 'exports', String(wholeWacz.id));
    assert.ok(existsSync(join(collectionDir, 'index.cdxj')));
    assert.ok(existsSync(join(waczDir, wholeWacz.files[0]!.name)));
    assert.equal((await api.request('DELETE', `/api/crawls/${crawl.id}`)).status, 204);
    assert.equal(existsSync(collectionDir), false);
    assert.equal(existsSync(waczDir), false);
  } finally {
    await cockpit.stop();
  }
});
