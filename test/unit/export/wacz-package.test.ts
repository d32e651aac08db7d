import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { datapackage, datapackageDigest, pageLine, pagesHeaderLine, WACZ_VERSION, type WaczPage } from '../../../worker/export/wacz-package';

test('pages.jsonl starts with the format line, then one page a line with an id', () => {
  const pagesJsonl = (pages: WaczPage[], hasText = false) => pagesHeaderLine(hasText) + pages.map((p, i) => pageLine(p, i + 1)).join('');
  const lines = pagesJsonl([
    { url: 'http://a.example/', ts: '2026-11-24T10:00:00Z' },
    { url: 'http://a.example/b?x="y"', ts: '2026-11-24T10:00:01Z', title: 'B — "quoted"' },
  ]).split('\n');
  assert.equal(lines.length, 4, 'three lines and the final newline');
  assert.equal(lines[3], '');
  assert.deepEqual(JSON.parse(lines[0]!), { format: 'json-pages-1.0', id: 'pages', title: 'All Pages' });
  assert.deepEqual(JSON.parse(lines[1]!), { id: 'p1', url: 'http://a.example/', ts: '2026-11-24T10:00:00Z' }, 'no title: none listed');
  assert.deepEqual(JSON.parse(lines[2]!), { id: 'p2', url: 'http://a.example/b?x="y"', ts: '2026-11-24T10:00:01Z', title: 'B — "quoted"' });
  assert.equal(pagesJsonl([]).split('\n').filter(Boolean).length, 1, 'no pages: the format line alone');
  const withText = pagesJsonl([{ url: 'http://a.example/', ts: '2026-11-24T10:00:00Z', text: 'Tides\nand "harbours"' }], true).split('\n');
  assert.deepEqual(JSON.parse(withText[0]!), { format: 'json-pages-1.0', id: 'pages', title: 'All Pages', hasText: true }, 'the header says the pages have text');
  assert.equal((JSON.parse(withText[1]!) as { text: string }).text, 'Tides\nand "harbours"');
  assert.equal(withText.length, 3, 'a newline in the text stays escaped inside its line');
  assert.deepEqual(JSON.parse(pageLine({ url: 'http://a.example/', ts: '2026-11-24T10:00:00Z', truncated: 'time' }, 1)), { id: 'p1', url: 'http://a.example/', ts: '2026-11-24T10:00:00Z', truncated: 'time' }, 'a page cut short says how');
  assert.equal('truncated' in JSON.parse(pageLine({ url: 'http://a.example/', ts: '2026-11-24T10:00:00Z', truncated: null }, 1)), false, 'a whole page: no property');
});

test('datapackage.json holds the WACZ profile, version, description and resources; the main page only when there is one', () => {
  const resources = [{ name: 'x.warc.gz', path: 'archive/x.warc.gz', hash: 'sha256:ab', bytes: 10 }];
  const created = new Date('2026-11-24T10:00:00.123Z');
  const withPage = datapackage({ title: 'Demo', description: 'the whole crawl', created, mainPage: { url: 'http://a.example/', ts: '2026-11-24T09:00:00Z' } }, resources);
  assert.equal(withPage.profile, 'data-package');
  assert.equal(withPage.wacz_version, WACZ_VERSION);
  assert.equal(WACZ_VERSION, '1.1.1');
  assert.equal(withPage.created, '2026-11-24T10:00:00.123Z');
  // WACZ 1.1.1: the manifest SHOULD include title, description, created, modified and software.
  for (const name of ['title', 'description', 'created', 'modified', 'software']) assert.equal(typeof withPage[name], 'string', `${name} is given`);
  assert.equal(withPage.modified, '2026-11-24T10:00:00.123Z', 'written once: modified when created');
  assert.equal(withPage.mainPageUrl, 'http://a.example/');
  assert.equal(withPage.mainPageDate, '2026-11-24T09:00:00Z');
  assert.match(String(withPage.software), /^Tidemark\//);
  assert.deepEqual(withPage.resources, resources);
  const without = datapackage({ title: 'Demo', description: '', created }, []);
  assert.equal('mainPageUrl' in without, false);
  assert.equal('mainPageDate' in without, false);
});

test("datapackage-digest.json names the manifest's sha256", () => {
  const manifest = Buffer.from('{"profile":"data-package"}');
  assert.deepEqual(datapackageDigest(manifest), { path: 'datapackage.json', hash: `sha256:${createHash('sha256').update(manifest).digest('hex')}` });
});
