import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync, gunzipSync, gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { startFixtureServer, type FixtureServer } from '../fixtures/servers/fixture-server';
import { startReplayServer, type ReplayedPage, type ReplayServer } from '../support/replay-harness';
import { runCli } from '../support/run-cli';
import { parseCdxjLine } from '../../worker/warc';
import { launchBrowser } from './helpers/browser';

const UTF8_TEXT = 'Ævar’s café — 東京';
// The bytes 0xE9, 0x80, 0x97 and 0x92 mean é, €, — and ’ in windows-1252 (not in ISO 8859-1).
const CP1252_BYTES = Buffer.from('<!doctype html><p>Caf\xe9 \x805 \x97 it\x92s</p>', 'latin1');
const CP1252_TEXT = 'Café €5 — it’s';
// One body for two URLs; it links its twin, so /twin-a is always fetched (and stored) first.
const TWIN_BODY = '<!doctype html><p>Twins share every byte.</p><a href="/twin-b">twin</a>';
const CHUNKS = ['<!doctype html><p>First chunk.</p>', Array.from({ length: 500 }, (_, i) => `<p>Row ${i}</p>`).join(''), '<p>Last chunk.</p>'];

// The image's pixels, row by row: the replayed image is compared with them, pixel for pixel.
const PIXELS = [[200, 30, 30], [30, 200, 30], [30, 30, 200], [200, 200, 30]];

/** A valid 2×2 RGB PNG of PIXELS: signature, IHDR, IDAT (the deflated scanlines), IEND, each with its CRC. */
function twoByTwoPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header[8] = 8; // bits per sample
  header[9] = 2; // RGB
  // Each scanline: filter type 0, then its two pixels.
  const rows = Buffer.from([0, ...PIXELS[0]!, ...PIXELS[1]!, 0, ...PIXELS[2]!, ...PIXELS[3]!]);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

const html = (res: ServerResponse, body: string | Buffer, charset = 'utf-8') =>
  res.writeHead(200, { 'content-type': `text/html; charset=${charset}` }).end(body);
const script = (res: ServerResponse, body: string) => res.writeHead(200, { 'content-type': 'text/javascript' }).end(body);

/** A page whose script is a module graph: it writes MODULES_TEXT only when every module of it loaded. */
const MODULE_SITE: Record<string, (q: unknown, res: ServerResponse) => void> = {
  '/modules': (_q, res) => html(res, `<!doctype html><p id="out">not run</p>
    <script type="importmap">{"imports": {"lib": "/js/lib.js"}}</script>
    <script type="module" src="/js/main.mjs"></script>
    <script type="module">import { inline } from './js/inl-dep.js'; window.inline = inline;</script>`),
  '/js/main.mjs': (_q, res) => script(res, `import { a } from './dep-a.mjs'; import lib from 'lib';
    const { lazy } = await import('./lazy.mjs');
    document.getElementById('out').textContent = [a, lib, window.inline, lazy].join(' ');`),
  '/js/dep-a.mjs': (_q, res) => script(res, `import { b } from "/js/dep-b.mjs"; export const a = 'a' + b;`),
  '/js/dep-b.mjs': (_q, res) => script(res, `export const b = 'b';`),
  '/js/lib.js': (_q, res) => script(res, `export default 'lib';`),
  '/js/lazy.mjs': (_q, res) => script(res, `export const lazy = 'lazy';`),
  '/js/inl-dep.js': (_q, res) => script(res, `export const inline = 'inline';`),
};
const MODULES_TEXT = 'ab lib inline lazy';

/** Pages that replay tools get wrong: charsets, revisits, redirects, content and transfer codings, subresources. */
function startTrickySite(): Promise<FixtureServer> {
  const png = twoByTwoPng();
  const gzippedPage = gzipSync('<!doctype html><p>Unpacked from gzip.</p>');
  const gzippedChunkedPage = gzipSync('<!doctype html><p>Unpacked from gzip, sent in chunks.</p>');
  return startFixtureServer({
    '/': (_q, res) => html(res, ['/utf8', '/cp1252', '/twin-a', '/moved', '/gzipped', '/gzipped-chunked', '/chunked', '/styled', '/odd|name^s', '/modules'].map((p) => `<a href="${p}">${p}</a>`).join(' ')),
    '/utf8': (_q, res) => html(res, `<!doctype html><p>${UTF8_TEXT}</p>`),
    // The charset is only in the header: a replay must keep it.
    '/cp1252': (_q, res) => html(res, CP1252_BYTES, 'windows-1252'),
    '/twin-a': (_q, res) => html(res, TWIN_BODY),
    '/twin-b': (_q, res) => html(res, TWIN_BODY),
    '/moved': (_q, res) => res.writeHead(302, { location: '/moved-here' }).end(),
    '/moved-here': (_q, res) => html(res, '<!doctype html><p>Arrived after a redirect.</p>'),
    '/gzipped': (_q, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip', 'content-length': String(gzippedPage.length) }).end(gzippedPage),
    // No Content-Length: node:http sends each write as a chunk.
    '/gzipped-chunked': (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' });
      res.write(gzippedChunkedPage.subarray(0, 12));
      res.end(gzippedChunkedPage.subarray(12));
    },
    '/chunked': (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      for (const part of CHUNKS.slice(0, -1)) res.write(part);
      res.end(CHUNKS.at(-1));
    },
    '/styled': (_q, res) => html(res, '<!doctype html><link rel="stylesheet" href="/style.css"><p class="painted">Painted.</p><img id="pixel" src="/pixel.png" alt="">'),
    // Chromium asks for `/odd%7Cname%5Es` when a page links `/odd|name^s`; Node's URL parser keeps
    // them. The site answers both spellings alike, as servers do.
    '/odd%7Cname%5Es': (_q, res) => html(res, '<!doctype html><p>A pipe and a caret in the path.</p>'),
    '/odd|name^s': (_q, res) => html(res, '<!doctype html><p>A pipe and a caret in the path.</p>'),
    ...MODULE_SITE,
    '/style.css': (_q, res) => res.writeHead(200, { 'content-type': 'text/css' }).end('.painted { color: rgb(12, 34, 56); }'),
    '/pixel.png': (_q, res) => res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(png.length) }).end(png),
    // No page names it: a browser asks for it all the same, and so does a replay.
    '/favicon.ico': (_q, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png),
  });
}

let site: FixtureServer | undefined;
let replayServer: ReplayServer | undefined;
let browser: Browser | undefined;
let page: Page;
let out: string | undefined;
let warcPath: string;
let recordTypes: Map<string, string>;
let index: Map<string, { mime: string; status: string; offset: string; length: string }>;

before(async () => {
  site = await startTrickySite();
  out = mkdtempSync(join(tmpdir(), 'tm-replay-'));
  const icdPath = join(out, 'icd.json');
  writeFileSync(icdPath, JSON.stringify({ name: 'Tricky to replay', seeds: [`${site.url}/`], politeness: { minDelayMs: 0, maxDelayMs: 0, delayFactor: 0, concurrency: 4 } }));
  const run = await runCli(['crawl', icdPath, '--out', out, '--json', '--wacz', '--page-text']).done;
  assert.equal(run.code, 0, `crawl finished (stderr: ${run.stderr.slice(-2000)})`);
  const warcs = readdirSync(out).filter((n) => n.endsWith('.warc.gz'));
  assert.equal(warcs.length, 1, `one WARC file: ${warcs}`);
  warcPath = join(out, warcs[0]!);

  const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
  recordTypes = new Map((db.prepare('SELECT url, recordType FROM Capture').all() as { url: string; recordType: string }[]).map((r) => [new URL(r.url).pathname, r.recordType]));
  db.close();
  index = new Map();
  for (const line of readFileSync(join(out, 'index.cdxj'), 'utf8').split('\n').filter(Boolean)) {
    const { json } = parseCdxjLine(line)!;
    index.set(new URL(json.url).pathname, json);
  }

  replayServer = await startReplayServer({ 'crawl.warc.gz': warcPath, 'crawl.wacz': join(out, 'crawl.wacz') });
  browser = await launchBrowser();
  page = await (await browser.newContext()).newPage();
});

after(async () => {
  await browser?.close();
  await replayServer?.close();
  await site?.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

/** Replays a path of the crawled site from the WARC file (or the WACZ), checking that nothing was fetched from the live site meanwhile. */
async function replayed(path: string, source = 'crawl.warc.gz'): Promise<ReplayedPage> {
  const asked = site!.log.length;
  const shown = await replayServer!.replay(page, source, `${site!.url}${path}`);
  assert.deepEqual(site!.log.slice(asked).map((r) => r.path), [], 'the live site was not asked for anything during the replay');
  return shown;
}

/** The stored response or revisit record of a path, as the CDXJ index locates it: WARC head, HTTP head, body. */
function storedRecord(path: string): { warcHead: string; httpHead: string; body: Buffer } {
  const entry = index.get(path);
  assert.ok(entry, `${path} is in the index`);
  const record = gunzipSync(readFileSync(warcPath).subarray(Number(entry.offset), Number(entry.offset) + Number(entry.length)));
  const warcEnd = record.indexOf('\r\n\r\n') + 4;
  const httpEnd = record.indexOf('\r\n\r\n', warcEnd) + 4;
  // The block ends before the record's closing CRLF CRLF.
  return { warcHead: record.subarray(0, warcEnd).toString('latin1'), httpHead: record.subarray(warcEnd, httpEnd).toString('latin1'), body: record.subarray(httpEnd, record.length - 4) };
}

test('a UTF-8 page replays with its non-ASCII text', async () => {
  assert.equal((await replayed('/utf8')).text, UTF8_TEXT);
});

test('a windows-1252 page, its charset only in Content-Type, replays with the characters its bytes stand for', async () => {
  assert.equal((await replayed('/cp1252')).text, CP1252_TEXT);
});

test('a body identical to an earlier one is stored as an identical-payload-digest revisit and replays with the earlier body', async () => {
  assert.equal(recordTypes.get('/twin-a'), 'response');
  assert.equal(recordTypes.get('/twin-b'), 'revisit');
  assert.equal(index.get('/twin-b')?.mime, 'warc/revisit');
  const { warcHead, body } = storedRecord('/twin-b');
  assert.match(warcHead, /^WARC-Profile: http:\/\/netpreserve\.org\/warc\/1\.1\/revisit\/identical-payload-digest\r$/m);
  assert.match(warcHead, new RegExp(`^WARC-Refers-To-Target-URI: ${site!.url}/twin-a\r$`, 'm'));
  assert.equal(body.length, 0, 'the revisit keeps the headers only');

  const shown = await replayed('/twin-b');
  assert.equal(shown.url, `${site!.url}/twin-b`);
  assert.equal(shown.text, 'Twins share every byte.\n\ntwin');
});

test('a recorded redirect is followed inside the archive, to the page it points at', async () => {
  assert.equal(index.get('/moved')?.status, '302');
  const shown = await replayed('/moved');
  assert.equal(shown.url, `${site!.url}/moved-here`);
  assert.equal(shown.text, 'Arrived after a redirect.');
});

test('a gzip-encoded page replays decoded, with a Content-Length or sent in chunks', async () => {
  // The archive keeps the gzip bytes: decoding them is the replay's work.
  for (const path of ['/gzipped', '/gzipped-chunked']) {
    const { httpHead, body } = storedRecord(path);
    assert.match(httpHead, /^content-encoding: gzip\r$/im, path);
    assert.deepEqual([...body.subarray(0, 2)], [0x1f, 0x8b], `${path} is stored gzipped`);
  }
  assert.equal((await replayed('/gzipped')).text, 'Unpacked from gzip.');
  assert.equal((await replayed('/gzipped-chunked')).text, 'Unpacked from gzip, sent in chunks.');
});

test('a chunked response replays whole', async () => {
  const { httpHead, body } = storedRecord('/chunked');
  assert.doesNotMatch(httpHead, /^transfer-encoding:/im, 'stored de-chunked, the head does not say chunked');
  assert.equal(body.toString('utf8'), CHUNKS.join(''));
  const lines = (await replayed('/chunked')).text.split(/\n+/);
  assert.deepEqual(lines, ['First chunk.', ...Array.from({ length: 500 }, (_, i) => `Row ${i}`), 'Last chunk.']);
});

test("a page's image and stylesheet are served from the archive", async () => {
  const { frame } = await replayed('/styled');
  const rendered = await frame.evaluate(() => {
    // naturalWidth alone would pass for a PNG whose data is broken: Chromium takes it from IHDR.
    const image = document.querySelector<HTMLImageElement>('#pixel')!;
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 2;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    return {
      imageWidth: image.naturalWidth,
      pixels: [...context.getImageData(0, 0, 2, 2).data],
      color: getComputedStyle(document.querySelector('.painted')!).color,
    };
  });
  assert.deepEqual(rendered, { imageWidth: 2, pixels: PIXELS.flatMap((rgb) => [...rgb, 255]), color: 'rgb(12, 34, 56)' });
});

test("the site's /favicon.ico, which no page names, is served from the archive", async () => {
  for (const source of ['crawl.warc.gz', 'crawl.wacz']) {
    const { frame } = await replayed('/styled', source);
    const asked = site!.log.length;
    const icon = await frame.evaluate(async () => {
      const response = await fetch('/favicon.ico');
      return { status: response.status, bytes: [...new Uint8Array(await response.arrayBuffer())] };
    });
    assert.deepEqual(icon, { status: 200, bytes: [...twoByTwoPng()] }, source);
    assert.deepEqual(site!.log.slice(asked).map((r) => r.path), [], `nothing asked of the live site (${source})`);
  }
});

test("a page's module graph (imports, an import map, an inline module, a literal import()) is served from the archive, and its script runs", async () => {
  for (const source of ['crawl.warc.gz', 'crawl.wacz']) {
    const asked = site!.log.length;
    const { frame } = await replayed('/modules', source);
    // The dynamic import resolves after the load event the replay waits for.
    await frame.waitForFunction((text) => document.getElementById('out')?.textContent === text, MODULES_TEXT, { timeout: 15_000 });
    assert.deepEqual(site!.log.slice(asked).map((r) => r.path), [], `nothing asked of the live site (${source})`);
  }
});

test('a page whose path holds a pipe or a caret replays, from the WARC file and the WACZ, however the link spells them', async () => {
  for (const source of ['crawl.warc.gz', 'crawl.wacz']) {
    for (const path of ['/odd|name^s', '/odd%7Cname%5Es']) {
      assert.equal((await replayed(path, source)).text, 'A pipe and a caret in the path.', `${path} from ${source}`);
    }
  }
});

test("the crawl's WACZ package (--wacz) replays the same pages as its WARC file", async () => {
  for (const path of ['/utf8', '/cp1252', '/twin-b', '/moved', '/gzipped-chunked']) {
    const fromWarc = await replayed(path);
    const fromWacz = await replayed(path, 'crawl.wacz');
    assert.deepEqual({ url: fromWacz.url, text: fromWacz.text }, { url: fromWarc.url, text: fromWarc.text }, path);
  }
  const styled = await replayed('/styled', 'crawl.wacz');
  const color = await styled.frame.evaluate(() => getComputedStyle(document.querySelector('.painted')!).color);
  assert.equal(color, 'rgb(12, 34, 56)', 'the stylesheet, from the package');
});

test("the package's page text (--page-text) is searched by ReplayWeb.page: a word of the body finds both twins, the revisit too", async () => {
  const found = await replayServer!.searchPages(page, 'crawl.wacz', 'share');
  assert.deepEqual(found.sort(), [`${site!.url}/twin-a`, `${site!.url}/twin-b`]);
  assert.deepEqual(await replayServer!.searchPages(page, 'crawl.wacz', 'Arrived'), [`${site!.url}/moved-here`]);
});
