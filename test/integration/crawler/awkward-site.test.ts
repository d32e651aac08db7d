import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { startAwkwardSite, type AwkwardSite } from '../../support/awkward-site';
import { runCli } from '../../support/run-cli';
import { readZip } from '../../support/read-wacz';
import { verifyWarcFile, verifyCdxj } from '../../../worker/warc';
import { MAX_DECODED_PAYLOAD_BYTES, readRecordText, readStoredRecord } from '../../../worker/warc/read-record';
import { runExport } from '../../../worker/export/export-job';
import { writeCollection } from '../../../worker/export/collection-export';

let site: AwkwardSite;
let out: string;
let log: Map<string, { outcome: string; status: number | null; message: string | null }>;
let captures: Map<string, { status: number; size: number; recordType: string; title: string | null }>;
let summary: { outcome: string; pages: number; failuresByReason: Record<string, number>; wacz?: string };

before(async () => {
  // A bomb of 128 MB: more than the crawl decodes (10 MB) and than a stored record is decoded to
  // when read back (64 MB); compressing 1 GB took the site 3 s, which the crawl waited for.
  site = await startAwkwardSite({ robots: 'User-agent: *\nDisallow: /private/\n', bombMegabytes: 128 });
  out = mkdtempSync(join(tmpdir(), 'tm-awkward-'));
  const icdPath = join(out, 'icd.json');
  writeFileSync(icdPath, JSON.stringify({
    name: 'Awkward',
    seeds: [`${site.origin}/`],
    politeness: { minDelayMs: 0, maxDelayMs: 0, delayFactor: 0, concurrency: 4 },
    limits: { connectTimeoutMs: 2000, headersTimeoutMs: 2000, totalTimeoutMs: 3000, maxBodyBytes: 2 * 1024 * 1024, maxDecodedBytes: 10 * 1024 * 1024, maxRetries: 1 },
    scope: { maxPages: 500, maxCalendarDates: 30, maxOutLinksPerPage: 100 },
  }));
  const run = await runCli(['crawl', icdPath, '--out', out, '--json', '--wacz', '--page-text']).done;
  assert.equal(run.code, 0, `crawl finished (stderr: ${run.stderr.slice(-2000)})`);
  summary = JSON.parse(run.stdout.trim().split('\n').pop()!);
  assert.equal(summary.wacz, join(out, 'crawl.wacz'), 'the package is named in the summary');
  const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
  log = new Map((db.prepare('SELECT url, outcome, status, message FROM CrawlLogEntry ORDER BY id').all() as { url: string; outcome: string; status: number | null; message: string | null }[]).map((r) => [new URL(r.url).pathname, r]));
  captures = new Map((db.prepare('SELECT url, status, size, recordType, title FROM Capture').all() as { url: string; status: number; size: number; recordType: string; title: string | null }[]).map((r) => [new URL(r.url).pathname, r]));
  db.close();
});

after(async () => site.close());

test('the crawl finishes with a summary', () => {
  assert.equal(summary.outcome, 'finished');
  assert.ok(summary.pages >= 15);
});

test('robots.txt is archived and its Disallow honoured', () => {
  assert.equal(captures.get('/robots.txt')?.status, 200);
  assert.equal(log.get('/private/secret')?.outcome, 'robots');
  assert.ok(!site.requests.some((r) => r.path === '/private/secret'), 'never requested');
});

test('a redirect chain is captured hop by hop, and a loop ends', () => {
  for (const hop of ['/redirect/1', '/redirect/2', '/redirect/3']) assert.equal(captures.get(hop)?.status, 302, hop);
  assert.equal(captures.get('/final')?.status, 200);
  assert.equal(site.requests.filter((r) => r.path === '/loop/a').length, 1);
  assert.equal(site.requests.filter((r) => r.path === '/loop/b').length, 1);
});

test('a redirect to another scheme, without a Location or to no URL is archived, and its log entry says why nothing follows', () => {
  for (const hop of ['/redirect/ftp', '/redirect/nowhere', '/redirect/broken']) assert.equal(captures.get(hop)?.status, 302, hop);
  assert.equal(log.get('/redirect/ftp')?.message, 'redirect to a ftp: URL not followed (only http and https are fetched): "ftp://files.example/harbour.pdf"');
  assert.equal(log.get('/redirect/nowhere')?.message, 'a 302 without a Location header: no target to follow');
  assert.equal(log.get('/redirect/broken')?.message, 'redirect not followed: its Location "http://[::zz/harbour" is no valid URL');
  assert.equal(log.get('/redirect/1')?.message, null, 'a redirect followed has no such note');
});

test('a content coding not undone to its end is archived as received, its links read from what was decoded, and its log entry says why', () => {
  assert.equal(log.get('/coding/unknown')?.message, 'Content-Encoding "zstd" is none the crawl undoes (gzip, deflate, br): the body was read for links as it came');
  assert.match(log.get('/coding/damaged')?.message ?? '', /^Content-Encoding "gzip": corrupt data after \d+ decoded bytes; links read from those$/);
  assert.match(log.get('/coding/short')?.message ?? '', /^Content-Encoding "gzip": the coded data ends early, after \d+ decoded bytes; links read from those$/);
  for (const path of ['/coding/unknown', '/coding/damaged', '/coding/short']) assert.equal(log.get(path)?.outcome, 'ok', path);
  assert.equal(captures.get('/coding/after-unknown')?.status, 200, 'a mislabelled plain body still gives its links');
  assert.equal(captures.get('/coding/before-damage')?.status, 200, 'the link before the damage is followed');
  assert.equal(log.get('/final')?.message, null, 'a page decoded whole has no such note');
});

test('a link with user info is the page without it: fetched once, no credentials in the archive\'s URIs', () => {
  assert.equal(site.requests.filter((r) => r.path === '/final').length, 1);
  const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
  try {
    assert.deepEqual(db.prepare("SELECT url FROM Capture WHERE url LIKE '%@%'").all(), []);
  } finally {
    db.close();
  }
  assert.ok(!readFileSync(join(out, 'index.cdxj'), 'utf8').includes('secret'), 'the index names no credentials');
});

test('a slow body is cut at the total timeout and recorded', () => {
  const entry = log.get('/slow');
  assert.ok(entry, 'logged');
  assert.match(entry!.outcome, /total-timeout|truncated-time/);
});

test('a 50 MB response is truncated at the cap and archived as such', () => {
  assert.equal(captures.get('/huge')?.size, 2 * 1024 * 1024);
  assert.equal(log.get('/huge')?.outcome, 'truncated-length');
});

test('a gzip bomb is archived as received and its decoding stopped', () => {
  assert.equal(log.get('/bomb')?.outcome, 'decompression-bomb');
  assert.ok(captures.has('/bomb'));
});

test('reading the gzip bomb back (the cockpit opening its record) decodes no more than the cap', async () => {
  const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
  const at = (path: string) => db.prepare("SELECT warcFile, warcOffset, warcLength FROM Capture WHERE url = ? AND recordType = 'response'").get(`${site.origin}${path}`) as { warcFile: string; warcOffset: number; warcLength: number };
  const bomb = at('/bomb');
  const page = at('/final');
  db.close();
  const record = await readStoredRecord(out, bomb.warcFile, bomb.warcOffset, bomb.warcLength);
  assert.equal(record.payloadCut, true);
  assert.equal(record.payload.byteLength, MAX_DECODED_PAYLOAD_BYTES, 'decoded up to the cap (the whole would be 128 MB)');
  assert.ok(record.payload.every((b) => b === 0));
  const ordinary = await readStoredRecord(out, page.warcFile, page.warcOffset, page.warcLength);
  assert.equal(ordinary.payloadCut, false);
  assert.equal(Buffer.from(ordinary.payload).toString('utf8'), '<p>end of the chain</p>');
  assert.equal(await readRecordText(out, page.warcFile, page.warcOffset, page.warcLength), '<p>end of the chain</p>');
});

test('a calendar trap is contained', () => {
  const days = site.requests.filter((r) => r.path.startsWith('/calendar/')).length;
  assert.ok(days > 1 && days <= 30, `calendar pages fetched: ${days}`);
  assert.ok((summary as unknown as { excludedByReason: Record<string, number> }).excludedByReason['trap-calendar']! >= 1, 'calendar URLs excluded as a trap');
});

test('malformed HTML and wrong charsets do not stop link extraction', () => {
  assert.equal(captures.get('/deep')?.status, 200);
  assert.ok(captures.has('/caf%E9'), 'latin-1 link resolved with its meta charset');
  assert.equal(captures.get('/nocharset')?.status, 200);
});

test('hostile markup, stylesheets and headers are archived and their links followed', () => {
  assert.equal(captures.get('/hostile/nested')?.status, 200);
  assert.equal(captures.get('/hostile/after-nesting')?.status, 200, 'the link below 100,000 open elements was found');
  assert.equal(captures.get('/hostile/style.css')?.status, 200);
  assert.equal(captures.get('/hostile/from-css.png')?.status, 200, 'the url() after the bad one was found');
  assert.equal(captures.get('/hostile/headers')?.status, 200);
  assert.equal(log.get('/hostile/headers')?.outcome, 'ok');
  // A folded header, which undici refuses: read leniently on a second request, and said so.
  assert.equal(captures.get('/hostile/folded')?.status, 200);
  assert.equal(log.get('/hostile/folded')?.message, 'Response does not match the HTTP/1.1 protocol (Unexpected whitespace after header value): read by a lenient parser');
  assert.equal(captures.get('/hostile/from-folded')?.status, 200, 'its link followed');
  // One length given twice: read as one on a second request, said so, archived with both lines (read back with digests below).
  assert.equal(captures.get('/hostile/length-twice')?.status, 200);
  assert.match(log.get('/hostile/length-twice')?.message ?? '', /: read by a lenient parser, its Content-Length, given more than once with one value, read as one$/);
  assert.equal(captures.get('/hostile/from-length-twice')?.status, 200, 'its link followed');
});

test('a page with more links than maxOutLinksPerPage: the first 100 are followed, the crawl log counts the rest', () => {
  assert.equal(log.get('/hostile/farm')?.outcome, 'ok');
  assert.equal(log.get('/hostile/farm')?.message, '50 links past the first 100 not followed (scope.maxOutLinksPerPage)');
  const farmed = [...captures.keys()].filter((p) => p.startsWith('/farm/'));
  assert.equal(farmed.length, 100);
  assert.ok(captures.has('/farm/100') && !captures.has('/farm/101'), 'in document order');
});

test('a connection reset and a 500 leave clear crawl-log entries', () => {
  assert.equal(log.get('/reset')?.outcome, 'connection-reset');
  assert.equal(captures.get('/error500')?.status, 500);
  assert.equal(site.requests.filter((r) => r.path === '/error500').length, 2, 'retried once');
});

test("an HTML page's title is kept with its capture, whitespace collapsed and cut at 300 characters", () => {
  const title = captures.get('/hostile/title')?.title;
  assert.equal(title?.length, 300);
  assert.ok(title!.startsWith('Very long Very long '), title!.slice(0, 40));
  assert.equal(captures.get('/final')?.title, null, 'a page without a title has none');
  assert.equal(captures.get('/robots.txt')?.title, null);
});

test('a duplicate payload becomes a revisit record', () => {
  const types = [captures.get('/dup1')?.recordType, captures.get('/dup2')?.recordType].sort();
  assert.deepEqual(types, ['response', 'revisit']);
});

test('every WARC record reads back with valid digests and every CDXJ line points at its record', async () => {
  const warcs = readdirSync(out).filter((n) => n.endsWith('.warc.gz'));
  assert.ok(warcs.length >= 1);
  for (const name of warcs) {
    const check = await verifyWarcFile(join(out, name));
    assert.deepEqual(check.errors, [], name);
    assert.ok((check.types.revisit ?? 0) >= 0);
  }
  const index = await verifyCdxj(join(out, 'index.cdxj'), out);
  assert.deepEqual(index.errors, []);
});

test('--wacz packages the finished crawl: its WARC files and index byte for byte, its 2xx HTML pages (with --page-text, their text), robots.txt not among them', async () => {
  const entries = await readZip(readFileSync(join(out, 'crawl.wacz')));
  const warcs = readdirSync(out).filter((n) => n.endsWith('.warc.gz'));
  assert.deepEqual([...entries.keys()].filter((k) => k.startsWith('archive/')).sort(), warcs.map((n) => `archive/${n}`).sort());
  for (const name of warcs) assert.ok(entries.get(`archive/${name}`)!.bytes.equals(readFileSync(join(out, name))), name);
  assert.ok(entries.get('indexes/index.cdx')!.bytes.equals(readFileSync(join(out, 'index.cdxj'))));
  const [pagesHeader, ...pageLines] = entries.get('pages/pages.jsonl')!.bytes.toString('utf8').split('\n').filter(Boolean);
  assert.equal((JSON.parse(pagesHeader!) as { hasText?: boolean }).hasText, true, '--page-text');
  const listed = pageLines.map((l) => JSON.parse(l) as { url: string; text: string });
  assert.equal(listed.find((p) => p.url.endsWith('/final'))?.text, 'end of the chain');
  const pages = listed.map((p) => new URL(p.url).pathname);
  assert.equal(pages[0], '/', 'the seed first');
  for (const path of ['/final', '/dup1', '/dup2', '/latin1']) assert.ok(pages.includes(path), `${path} is a page`);
  for (const path of ['/robots.txt', '/redirect/1', '/error500', '/hostile/style.css']) assert.ok(!pages.includes(path), `${path} is not a page`);
  const manifest = JSON.parse(entries.get('datapackage.json')!.bytes.toString('utf8')) as { title: string; mainPageUrl: string };
  assert.equal(manifest.title, 'Awkward');
  assert.equal(manifest.mainPageUrl, `${site.origin}/`);
});

test("a WACZ with page text: each page's visible text, a revisit's read from the response it repeats", async () => {
  const db = new Database(join(out, 'tidemark-state.db'));
  const crawlId = db.prepare('SELECT id FROM Crawl').pluck().get() as number;
  const exportId = Number(db.prepare("INSERT INTO Export (crawlId, status, format, pageText) VALUES (?, 'pending', 'wacz', 1)").run(crawlId).lastInsertRowid);
  const exportDir = join(out, 'exports', String(exportId));
  try {
    await runExport(db, { exportId, crawlId, warcDir: out, exportDir });
    const row = db.prepare('SELECT status, error, files FROM Export WHERE id = ?').get(exportId) as { status: string; error: string | null; files: string };
    assert.equal(row.status, 'done', row.error ?? '');
    const entries = await readZip(readFileSync(join(exportDir, (JSON.parse(row.files) as { name: string }[])[0]!.name)));
    const [header, ...lines] = entries.get('pages/pages.jsonl')!.bytes.toString('utf8').split('\n').filter(Boolean);
    assert.equal((JSON.parse(header!) as { hasText?: boolean }).hasText, true);
    const texts = new Map(lines.map((l) => JSON.parse(l) as { url: string; text: string }).map((p) => [new URL(p.url).pathname, p.text]));
    assert.equal(texts.get('/final'), 'end of the chain');
    // One of the two is stored as a revisit, without a payload of its own.
    assert.deepEqual([captures.get('/dup1')?.recordType, captures.get('/dup2')?.recordType].sort(), ['response', 'revisit']);
    assert.equal(texts.get('/dup1'), 'the same bytes twice');
    assert.equal(texts.get('/dup2'), 'the same bytes twice');
    assert.equal(texts.get('/hostile/title'), 'titled', 'the visible text, not the title');
  } finally {
    db.close();
    rmSync(exportDir, { recursive: true, force: true });
  }
});

test('a collection of the revisit alone brings the response it refers to, and its files verify', async () => {
  const db = new Database(join(out, 'tidemark-state.db'));
  try {
    const revisit = db.prepare("SELECT crawlId, url, warcRecordId FROM Capture WHERE recordType = 'revisit' AND url LIKE '%/dup_'").get() as { crawlId: number; url: string; warcRecordId: string };
    const original = `${site.origin}${new URL(revisit.url).pathname === '/dup1' ? '/dup2' : '/dup1'}`;
    const selection = JSON.stringify({ urlContains: new URL(revisit.url).pathname });
    const exportId = Number(db.prepare("INSERT INTO Export (crawlId, status, selection) VALUES (?, 'pending', ?)").run(revisit.crawlId, selection).lastInsertRowid);
    const dir = join(out, 'collection');
    await runExport(db, { exportId, crawlId: revisit.crawlId, warcDir: out, exportDir: dir });
    const row = db.prepare('SELECT status, error, files FROM Export WHERE id = ?').get(exportId) as { status: string; error: string | null; files: string };
    assert.equal(row.status, 'done', row.error ?? '');
    const names = (JSON.parse(row.files) as { name: string }[]).map((f) => f.name);
    assert.deepEqual(names.sort(), [`collection-${revisit.crawlId}-${exportId}-00000.warc.gz`, 'index.cdxj']);
    const check = await verifyWarcFile(join(dir, names[0]!));
    assert.deepEqual(check.errors, []);
    // The collection's warcinfo and the source file's; the revisit with its request (the page has no links: no metadata); the original's response.
    assert.deepEqual(check.types, { warcinfo: 2, request: 1, revisit: 1, response: 1 });
    const text = gunzipSync(readFileSync(join(dir, names[0]!))).toString('latin1');
    assert.ok(text.includes(`WARC-Target-URI: ${original}\r\n`), 'the response the revisit refers to');
    assert.deepEqual((await verifyCdxj(join(dir, 'index.cdxj'), dir)).errors, []);

    // A stored selection that cannot be read fails its export, saying so, and leaves no files.
    for (const stored of ['{"hosts": ', '{"statusClasses": ["6xx"]}']) {
      const id = Number(db.prepare("INSERT INTO Export (crawlId, status, selection) VALUES (?, 'pending', ?)").run(revisit.crawlId, stored).lastInsertRowid);
      await runExport(db, { exportId: id, crawlId: revisit.crawlId, warcDir: out, exportDir: join(out, `collection-${id}`) });
      const failed = db.prepare('SELECT status, error FROM Export WHERE id = ?').get(id) as { status: string; error: string };
      assert.equal(failed.status, 'failed');
      assert.match(failed.error, /^The stored selection cannot be read: /, stored);
      assert.equal(existsSync(join(out, `collection-${id}`)), false);
    }
  } finally {
    db.close();
  }
});

test('a collection split over several files: each file stands alone (its warcinfos, whole captures) and the index spans them', async () => {
  const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
  const ids = db.prepare("SELECT warcRecordId FROM Capture WHERE recordType IN ('response', 'revisit')").pluck().all() as string[];
  const digests = db.prepare("SELECT payloadDigest FROM Capture WHERE recordType = 'revisit'").pluck().all() as string[];
  db.close();
  const dir = join(out, 'split-collection');
  const names = await writeCollection({
    sources: [{ dir: out, files: readdirSync(out).filter((n) => n.endsWith('.warc.gz')).sort() }], outDir: dir, prefix: 'split',
    chosen: new Set(ids), revisitDigests: new Set(digests), description: 'every capture, in small files', rotateBytes: 20_000, onProgress: () => undefined,
  });
  const warcs = names.filter((n) => n.endsWith('.warc.gz'));
  assert.ok(warcs.length >= 3, `${warcs.length} files`);
  let responses = 0;
  for (const name of warcs) {
    const check = await verifyWarcFile(join(dir, name));
    assert.deepEqual(check.errors, [], name);
    responses += (check.types.response ?? 0) + (check.types.revisit ?? 0);
  }
  assert.equal(responses, ids.length, 'every capture once');
  const index = await verifyCdxj(join(dir, 'index.cdxj'), dir);
  assert.deepEqual(index.errors, []);
  assert.equal(index.lines, ids.length);
});
