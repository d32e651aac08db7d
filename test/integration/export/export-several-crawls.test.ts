/**
 * A collection of two crawls of one ICD (a schedule's successive crawls): one set of WARC files
 * (or one WACZ) with one CDXJ index sorted over both and one page list, each capture at its own
 * date, so that a page captured by both replays at either date; each source crawl's warcinfo kept;
 * the WACZ passes `tidemark check` (verifyWacz, what the check runs). Before, an export held one crawl.
 * Real parts: a loopback site crawled twice by the engine, a migrated SQLite database, the export job.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseCdxjLine, verifyCdxj, verifyWarcFile } from '../../../worker/warc';
import { verifyWacz } from '../../../worker/export/verify-wacz';
import { requestExport } from '../../../worker/process/crawl-requests';
import { readZip } from '../../support/read-wacz';
import { bytesOf, withTwoCrawls, type TwoCrawls } from '../../support/two-crawls';

/** Requests an export of the later crawl taking the first, as the API does. */
function ask(c: TwoCrawls, format: 'warc' | 'wacz', selection: object | null): number {
  const outcome = requestExport(c.db, c.later.crawlId, { requestedById: 1, selection: selection && JSON.stringify(selection), format, pageText: format === 'wacz', otherCrawlIds: [c.first.crawlId] });
  assert.ok(typeof outcome === 'object' && 'done' in outcome, JSON.stringify(outcome));
  return outcome.done.id;
}

/** The 14-digit timestamps the index gives each URL path, in index order. */
function timestampsByPath(index: string): Record<string, string[]> {
  const lines = index.split('\n').filter(Boolean);
  assert.deepEqual(lines, [...lines].sort((a, b) => (Buffer.compare(Buffer.from(a), Buffer.from(b)))), 'the index is sorted over both crawls');
  const byPath: Record<string, string[]> = {};
  for (const line of lines) {
    const entry = parseCdxjLine(line)!;
    const path = new URL(entry.json.url as string).pathname;
    (byPath[path] ??= []).push(entry.timestamp);
  }
  return byPath;
}

/** The WARC-Filename of every warcinfo record in a .warc.gz's bytes. */
const warcinfoNames = (bytes: Buffer) => [...gunzipSync(bytes).toString('latin1').matchAll(/WARC-Type: warcinfo\r\n[\s\S]*?WARC-Filename: (\S+)/g)].map((m) => m[1]!);

test('a WACZ of two crawls of one ICD holds both dates of each page, one index, one page list, and passes the check', { timeout: 120_000 }, async () => {
  await withTwoCrawls('tm-export-two-', async (c) => {
    const exportId = ask(c, 'wacz', null);
    const row = await c.runExportOf(exportId);
    assert.equal(row.status, 'done', row.error ?? '');
    assert.equal(row.files.length, 1);
    const path = join(row.dir, row.files[0]!.name);
    const check = await verifyWacz(path);
    assert.deepEqual(check.errors, [], 'tidemark check passes it');

    const entries = await readZip(bytesOf(row.dir, row.files[0]!.name));
    const archived = [...entries.keys()].filter((p) => p.startsWith('archive/')).sort();
    assert.ok(archived.some((p) => p.startsWith(`archive/tidemark-${c.first.crawlId}-`)) && archived.some((p) => p.startsWith(`archive/tidemark-${c.later.crawlId}-`)), archived.join(', '));
    const byPath = timestampsByPath(entries.get('indexes/index.cdx')!.bytes.toString('utf8'));
    for (const p of ['/', '/harbour/about', '/img/dot.png']) {
      assert.equal(byPath[p]?.length, 2, `${p}: one capture per crawl (${byPath[p]})`);
      assert.notEqual(byPath[p]![0], byPath[p]![1], `${p}: at two dates`);
    }
    const [, ...lines] = entries.get('pages/pages.jsonl')!.bytes.toString('utf8').split('\n').filter(Boolean);
    const pages = lines.map((l) => JSON.parse(l) as { url: string; ts: string; title: string; text: string });
    const homes = pages.filter((p) => new URL(p.url).pathname === '/');
    assert.deepEqual(homes.map((p) => [p.title, /Edition \d/.exec(p.text)?.[0]]), [['Home 1', 'Edition 1'], ['Home 2', 'Edition 2']], 'the home page at each date, oldest first, each with its text');
    assert.notEqual(homes[0]!.ts, homes[1]!.ts);
    assert.equal(pages.length, 4, 'two pages, twice');
    // Each crawl's own warcinfo (its settings, its software) travels with its records.
    const infos = archived.flatMap((p) => warcinfoNames(entries.get(p)!.bytes));
    for (const id of [c.first.crawlId, c.later.crawlId]) assert.ok(infos.some((n) => n.startsWith(`tidemark-${id}-`)), `crawl ${id}'s warcinfo: ${infos.join(', ')}`);
  });
});

test('a selection of two crawls is applied to each: one set of WARC files and one index, requisites from each page\'s own crawl', { timeout: 120_000 }, async () => {
  await withTwoCrawls('tm-export-two-sel-', async (c) => {
    const origin = new URL(c.origin);
    // The second page only: the image it shows comes along as its requisite, from its own crawl.
    const exportId = ask(c, 'warc', { hosts: [origin.host], urlContains: '/harbour/' });
    const row = await c.runExportOf(exportId);
    assert.equal(row.status, 'done', row.error ?? '');
    const names = row.files.map((f) => f.name);
    const warcs = names.filter((n) => n.endsWith('.warc.gz'));
    assert.ok(warcs.length >= 1 && warcs.every((n) => n.startsWith(`collection-${c.later.crawlId}-${exportId}-`)), names.join(', '));
    assert.deepEqual(names.filter((n) => !n.endsWith('.warc.gz')), ['index.cdxj']);
    for (const name of warcs) assert.deepEqual((await verifyWarcFile(join(row.dir, name))).errors, []);
    assert.deepEqual((await verifyCdxj(join(row.dir, 'index.cdxj'), row.dir)).errors, []);
    const byPath = timestampsByPath(bytesOf(row.dir, 'index.cdxj').toString('utf8'));
    assert.deepEqual(Object.keys(byPath).sort(), ['/harbour/about', '/img/dot.png'], 'the selection and its requisite, not the home page');
    // Each crawl's image: the first crawl's before the later crawl's page, the later one's after the first crawl's page.
    const [about1, about2] = byPath['/harbour/about']!;
    const [dot1, dot2] = byPath['/img/dot.png']!;
    assert.ok(about1! < about2! && dot1! < about2! && about1! < dot2!, `${about1} ${dot1} ${about2} ${dot2}`);
    const infos = warcs.flatMap((n) => warcinfoNames(bytesOf(row.dir, n)));
    for (const id of [c.first.crawlId, c.later.crawlId]) assert.ok(infos.some((n) => n.startsWith(`tidemark-${id}-`)), `crawl ${id}'s warcinfo: ${infos.join(', ')}`);
  });
});
