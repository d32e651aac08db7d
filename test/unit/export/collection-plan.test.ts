import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { openSqlite } from '../../../worker/store/sqlite';
import {
  collectionSelectionSchema, collectionSizeSql, describeSelection, mayBeNeeded, mimeSelected, takesRequisites, planCollection, revisitsWithoutOriginal, selectedHost, selectionSql, selectsEverything, type StoredRecordHead,
} from '../../../worker/export/collection-plan';

const rec = (file: string, offset: number, type: string, id: string, extra: Partial<StoredRecordHead> = {}): StoredRecordHead => ({
  file, offset, length: 10, type, id, concurrentTo: [], ...extra,
});

// Two files: a page, its duplicate (a revisit) in the second file, and another page.
const records: StoredRecordHead[] = [
  rec('a.warc.gz', 0, 'warcinfo', 'info-a'),
  rec('a.warc.gz', 10, 'request', 'req-1', { concurrentTo: ['resp-1'] }),
  rec('a.warc.gz', 20, 'response', 'resp-1'),
  rec('a.warc.gz', 30, 'metadata', 'meta-1', { concurrentTo: ['resp-1'] }),
  rec('a.warc.gz', 40, 'request', 'req-2', { concurrentTo: ['resp-2'] }),
  rec('a.warc.gz', 50, 'response', 'resp-2'),
  rec('b.warc.gz', 0, 'warcinfo', 'info-b'),
  rec('b.warc.gz', 10, 'request', 'req-3', { concurrentTo: ['rev-3'] }),
  rec('b.warc.gz', 20, 'revisit', 'rev-3', { refersTo: 'resp-1' }),
];
const at = (plan: { file: string; offset: number }[]) => plan.map((m) => `${m.file[0]}${m.offset}`);

test('a collection holds the chosen records with their request and metadata, after their file\'s warcinfo', () => {
  assert.deepEqual(at(planCollection(records, new Set(['resp-2']))), ['a0', 'a40', 'a50']);
  assert.deepEqual(at(planCollection(records, new Set(['resp-1']))), ['a0', 'a10', 'a20', 'a30']);
  assert.deepEqual(planCollection(records, new Set(['no-such-record'])), []);
});

test('a chosen revisit brings the response it refers to (not that response\'s request), from any file', () => {
  assert.deepEqual(at(planCollection(records, new Set(['rev-3']))), ['a0', 'a20', 'b0', 'b10', 'b20']);
  assert.deepEqual(at(planCollection(records, new Set(['rev-3', 'resp-1']))), ['a0', 'a10', 'a20', 'a30', 'b0', 'b10', 'b20'], 'each record once');
});

test('a revisit naming no record the scan found brings a response with its payload digest; one with none is reported', () => {
  const byDigest = [
    rec('a.warc.gz', 0, 'warcinfo', 'info-a'),
    rec('a.warc.gz', 10, 'response', 'resp-1', { payloadDigest: 'sha1:ONE' }),
    rec('b.warc.gz', 0, 'warcinfo', 'info-b'),
    // A server-not-modified revisit whose visit had no record id: no WARC-Refers-To.
    rec('b.warc.gz', 10, 'revisit', 'rev-unnamed', { payloadDigest: 'sha1:ONE' }),
    rec('b.warc.gz', 20, 'revisit', 'rev-dangling', { refersTo: 'gone', payloadDigest: 'sha1:ONE' }),
    rec('b.warc.gz', 30, 'revisit', 'rev-orphan', { refersTo: 'gone', payloadDigest: 'sha1:NONE' }),
  ];
  assert.deepEqual(at(planCollection(byDigest, new Set(['rev-unnamed']))), ['a0', 'a10', 'b0', 'b10']);
  assert.deepEqual(at(planCollection(byDigest, new Set(['rev-dangling']))), ['a0', 'a10', 'b0', 'b20']);
  assert.deepEqual(revisitsWithoutOriginal(byDigest, new Set(['rev-unnamed', 'rev-dangling', 'rev-orphan'])).map((r) => r.id), ['rev-orphan']);
  assert.deepEqual(revisitsWithoutOriginal(byDigest, new Set(['rev-unnamed', 'resp-1'])), []);
  assert.deepEqual(revisitsWithoutOriginal(records, new Set(['rev-3'])), [], 'named in WARC-Refers-To');
});

test('while scanning, only records a collection may need are kept', () => {
  const chosen = new Set(['rev-3']);
  const digests = new Set(['sha1:SAME']);
  const kept = [
    ...records,
    rec('c.warc.gz', 0, 'response', 'resp-same', { payloadDigest: 'sha1:SAME' }),
    rec('c.warc.gz', 10, 'response', 'resp-other', { payloadDigest: 'sha1:OTHER' }),
  ].filter((r) => mayBeNeeded(r, chosen, digests)).map((r) => r.id);
  assert.deepEqual(kept, ['info-a', 'info-b', 'req-3', 'rev-3', 'resp-same'], 'warcinfos, the chosen, its request, responses with the revisit\'s payload');
});

test('a collection file may end only before a record that starts a capture, in either writing order', () => {
  const starts = (plan: { file: string; offset: number; startsGroup: boolean }[]) => plan.filter((m) => m.startsGroup).map((m) => `${m.file[0]}${m.offset}`);
  // Request first (records above): the request starts the capture, its response and metadata do not.
  assert.deepEqual(starts(planCollection(records, new Set(['resp-1', 'resp-2', 'rev-3']))), ['a0', 'a10', 'a40', 'b0', 'b10']);
  // Response first, as Tidemark writes: the response starts it, the request and metadata after it do not.
  const responseFirst = [
    rec('c.warc.gz', 0, 'warcinfo', 'info-c'),
    rec('c.warc.gz', 10, 'response', 'r1'),
    rec('c.warc.gz', 20, 'request', 'q1', { concurrentTo: ['r1'] }),
    rec('c.warc.gz', 30, 'metadata', 'm1', { concurrentTo: ['r1'] }),
    rec('c.warc.gz', 40, 'response', 'r2'),
    rec('c.warc.gz', 50, 'request', 'q2', { concurrentTo: ['r2'] }),
  ];
  assert.deepEqual(starts(planCollection(responseFirst, new Set(['r1', 'r2']))), ['c0', 'c10', 'c40']);
});

test('a selection: defaults, validation naming the field, a description', () => {
  const none = collectionSelectionSchema.parse({});
  assert.deepEqual(none, { hosts: [], mimeTypes: [], statusClasses: [], urlContains: '', coherence: [] });
  assert.ok(selectsEverything(none));
  assert.equal(describeSelection(none), 'every capture');
  const s = collectionSelectionSchema.parse({ hosts: [' a.example '], statusClasses: ['2xx'], urlContains: '/news/', coherence: ['unchanged'] });
  assert.equal(describeSelection(s), 'hosts a.example; statuses 2xx; URLs containing "/news/"; pages unchanged between visit and revisit; with the pages\' requisites');
  // Requisites: asked for or not; else taken unless a MIME filter says which types the manager wants.
  assert.ok(takesRequisites(s));
  const html = collectionSelectionSchema.parse({ mimeTypes: ['text/html'] });
  assert.ok(!takesRequisites(html));
  assert.equal(describeSelection(html), 'MIME types text/html');
  assert.ok(takesRequisites(collectionSelectionSchema.parse({ mimeTypes: ['text/html', 'image/'], requisites: true })));
  assert.equal(describeSelection(collectionSelectionSchema.parse({ urlContains: '/news/', requisites: false })), 'URLs containing "/news/"');
  assert.ok(selectsEverything(collectionSelectionSchema.parse({ requisites: false })), 'no filter: the whole crawl, whatever it says of requisites');
  assert.deepEqual(['text/html; charset=utf-8', 'TEXT/HTML', 'image/png', null].map((m) => mimeSelected(m, ['text/html', 'Image/'])), [true, true, true, false]);
  for (const bad of [{ statusClasses: ['6xx'] }, { hosts: [''] }, { mimeTypes: 'text/html' }, { other: 1 }, { coherence: ['coherent'] }, { requisites: 'yes' }]) {
    const r = collectionSelectionSchema.safeParse(bad);
    assert.equal(r.success, false, JSON.stringify(bad));
    assert.ok(r.error!.issues.every((i) => i.path.length > 0 || i.code === 'unrecognized_keys'), 'issues name a field');
  }
});

test('the selection\'s SQL picks captures by host (with port), MIME prefix, status class and URL text', () => {
  const db = new Database(':memory:');
  db.exec("CREATE TABLE Capture (id INTEGER PRIMARY KEY, crawlId INTEGER, url TEXT, mime TEXT, status INTEGER, fetchedAt TEXT DEFAULT '2026-01-01T00:00:00.000+00:00')");
  db.exec("CREATE TABLE CoherencePage (crawlId INTEGER, url TEXT, status TEXT, visitedAt TEXT DEFAULT '2026-01-01T00:00:00.000+00:00', revisitedAt TEXT)");
  db.exec("INSERT INTO CoherencePage (crawlId, url, status) VALUES (1, 'http://a.example/news/1.html', 'unchanged'), (1, 'http://b.example', 'missing'), (2, 'http://A.example/img/x.png', 'unchanged')");
  const rows: [string, string | null, number][] = [
    ['http://a.example/news/1.html', 'text/html', 200],
    ['http://A.example/img/x.png', 'image/png', 200],
    ['http://a.example:8080/news/2.html', 'text/html', 404],
    ['https://b.example/news/3', 'application/xhtml+xml', 301],
    ['http://b.example', null, 500],
    ['http://c.example/te_t%', 'text/htmlx', 200],
  ];
  for (const [url, mime, status] of rows) db.prepare('INSERT INTO Capture (crawlId, url, mime, status) VALUES (1, ?, ?, ?)').run(url, mime, status);
  db.prepare("INSERT INTO Capture (crawlId, url, mime, status) VALUES (2, 'http://a.example/news/1.html', 'text/html', 200)").run();
  const pick = (sel: object) => {
    const { where, params } = selectionSql(collectionSelectionSchema.parse(sel));
    return db.prepare(`SELECT id FROM Capture WHERE crawlId = ?${where} ORDER BY id`).pluck().all(1, ...params);
  };
  assert.deepEqual(pick({}), [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(pick({ hosts: ['a.example'] }), [1, 2], 'case-insensitive; another port is another host');
  assert.deepEqual(pick({ hosts: ['a.example:8080', 'b.example'] }), [3, 4, 5]);
  assert.deepEqual(pick({ mimeTypes: ['image/', 'application/xhtml+xml'] }), [2, 4]);
  assert.deepEqual(pick({ mimeTypes: ['TEXT/HTML'] }), [1, 3, 6], 'a prefix');
  assert.deepEqual(pick({ statusClasses: ['3xx', '5xx'] }), [4, 5]);
  assert.deepEqual(pick({ urlContains: '_t%' }), [6], 'no wildcards');
  assert.deepEqual(pick({ hosts: ['a.example'], urlContains: '/news/', statusClasses: ['2xx'] }), [1], 'every filter at once');
  assert.deepEqual(pick({ coherence: ['unchanged'] }), [1], 'the page\'s status in this crawl only');
  assert.deepEqual(pick({ coherence: ['unchanged', 'missing'] }), [1, 5]);
  db.close();
});

// Found by an exploratory session: a visit–revisit crawl with recrawl rounds exported, as "pages
// unchanged between visit and revisit", every later capture of those pages too, changed ones included,
// beside a certificate that vouches only for the visit and the revisit.
test('a coherence filter picks the page\'s visit and revisit, not its captures before or after them', () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE Capture (id INTEGER PRIMARY KEY, crawlId INTEGER, url TEXT, mime TEXT, status INTEGER, fetchedAt TEXT)');
  db.exec('CREATE TABLE CoherencePage (crawlId INTEGER, url TEXT, status TEXT, visitedAt TEXT, revisitedAt TEXT)');
  const at = (second: number) => `2026-12-01T00:00:${String(second).padStart(2, '0')}.000+00:00`;
  // /late: visit at 10, revisit at 20 (unchanged), recrawl rounds at 30 and 40 (changed by then).
  // /gone: a capture at 5 the crash lost (visited again at 10), a revisit that failed with a body cut
  // off (captured at 19, recorded at 21), a round at 30. /before: no revisit yet.
  db.exec(`INSERT INTO CoherencePage VALUES (1, 'http://a.example/late', 'unchanged', '${at(10)}', '${at(20)}'),
    (1, 'http://a.example/gone', 'missing', '${at(10)}', '${at(21)}'), (1, 'http://a.example/before', NULL, '${at(12)}', NULL)`);
  const captures: [string, number][] = [['late', 10], ['late', 20], ['late', 30], ['late', 40], ['gone', 5], ['gone', 10], ['gone', 19], ['gone', 30], ['before', 12]];
  for (const [path, second] of captures) db.prepare("INSERT INTO Capture (crawlId, url, mime, status, fetchedAt) VALUES (1, ?, 'text/html', 200, ?)").run(`http://a.example/${path}`, at(second));
  const pick = (sel: object) => {
    const { where, params } = selectionSql(collectionSelectionSchema.parse(sel));
    return db.prepare(`SELECT id FROM Capture WHERE crawlId = ?${where} ORDER BY id`).pluck().all(1, ...params);
  };
  try {
    assert.deepEqual(pick({ coherence: ['unchanged'] }), [1, 2], 'the visit and the revisit; not the rounds\' captures');
    assert.deepEqual(pick({ coherence: ['missing'] }), [6, 7], 'the visit the status compares and the revisit\'s cut body');
    // The WACZ's page list applies the clause to an aliased capture in a subquery (export-job.ts).
    const { where, params } = selectionSql(collectionSelectionSchema.parse({ coherence: ['unchanged'] }));
    const later = db.prepare(`SELECT id FROM Capture WHERE crawlId = ? AND EXISTS (SELECT 1 FROM Capture AS e WHERE e.crawlId = Capture.crawlId AND e.url = Capture.url AND e.id < Capture.id${where}) ORDER BY id`);
    assert.deepEqual(later.pluck().all(1, ...params), [2, 3, 4], 'the subquery\'s own capture is the one filtered');
  } finally {
    db.close();
  }
});

// Found by an exploratory session: "LATIN" found a capture in the captures list and none in the export
// preview (instr, case-sensitive), a host pasted as a URL matched nothing, and "é" never matched a
// URL, which stores it percent-encoded.
test('the selection matches URL text as the captures\' filter does, and takes a host written as a URL', () => {
  const db = openSqlite(':memory:');
  db.exec('CREATE TABLE Capture (id INTEGER PRIMARY KEY, crawlId INTEGER, url TEXT, mime TEXT, status INTEGER)');
  const urls = ['http://127.0.0.1:4102/latin/caf%C3%A9', 'http://127.0.0.1:4102/CAF%C3%89-noir', 'http://xn--bcher-kva.example/', 'https://b.example:8443/Latin1', 'http://127.0.0.1:80/x'];
  for (const url of urls) db.prepare("INSERT INTO Capture (crawlId, url, mime, status) VALUES (1, ?, 'text/html', 200)").run(url);
  const pick = (sel: object) => {
    const { where, params } = selectionSql(collectionSelectionSchema.parse(sel));
    return db.prepare(`SELECT id FROM Capture WHERE crawlId = ?${where} ORDER BY id`).pluck().all(1, ...params);
  };
  try {
    assert.deepEqual(pick({ urlContains: 'LATIN' }), [1, 4], 'letters in either case');
    assert.deepEqual(pick({ urlContains: 'café' }), [1, 2], 'an accented text, in either case, finds the URL that stores it encoded');
    assert.deepEqual(pick({ urlContains: 'CAFÉ-NOIR' }), [2]);
    assert.deepEqual(pick({ urlContains: 'cafe\u0301' }), [1, 2], 'composed or not');
    assert.deepEqual(pick({ urlContains: 'bücher' }), [3], 'a host in its script');
    assert.deepEqual(pick({ urlContains: '%c3%a9' }), [1], 'the stored form too');
    assert.deepEqual(pick({ hosts: ['HTTP://127.0.0.1:4102/'] }), [1, 2], 'a host pasted as a URL');
    assert.deepEqual(pick({ hosts: ['https://B.example:8443/Latin1?x'] }), [4]);
    assert.deepEqual(pick({ hosts: ['https://bücher.example/'] }), [3], 'an IDN as the URLs write it');
    assert.deepEqual(pick({ hosts: ['127.0.0.1:80'] }), [5], 'a bare host keeps the port written');
  } finally {
    db.close();
  }
  assert.deepEqual(['127.0.0.1:4102', 'HTTP://127.0.0.1:4102/', 'http://example.org:80/a', 'https://example.org:443', 'example.org/news/', '[::1]:8080/x'].map(selectedHost),
    ['127.0.0.1:4102', '127.0.0.1:4102', 'example.org', 'example.org', 'example.org', '[::1]:8080']);
  // Found by an exploratory session (international names): a host with the root's trailing dot kept
  // it, and selected none of the captures, whose canonical URLs drop it.
  assert.deepEqual(['example.org.', 'example.org.:8080', 'http://bücher.example./a', 'bücher.example.'].map(selectedHost),
    ['example.org', 'example.org:8080', 'xn--bcher-kva.example', 'xn--bcher-kva.example']);
});

// Found by an exploratory session: the preview said 32 captures where the collection held 60, the
// responses that its revisits repeat (served by another host) left out.
test('a collection\'s size counts the responses its revisits repeat, once, with the selection', () => {
  const db = new Database(':memory:');
  db.exec("CREATE TABLE Capture (id INTEGER PRIMARY KEY, crawlId INTEGER, url TEXT, mime TEXT, status INTEGER, recordType TEXT, payloadDigest TEXT, size INTEGER, fetchedAt TEXT DEFAULT '2026-01-01T00:00:00.000+00:00')");
  const rows: [number, string, string, string | null, number][] = [
    [1, 'http://cdn.example/logo.png', 'response', 'sha1:LOGO', 1000],
    [1, 'http://a.example/logo.png', 'revisit', 'sha1:LOGO', 0],
    [1, 'http://a.example/again/logo.png', 'revisit', 'sha1:LOGO', 0],
    [1, 'http://a.example/', 'response', 'sha1:HOME', 300],
    [1, 'http://a.example/copy', 'revisit', 'sha1:HOME', 0],
    [1, 'http://cdn.example/logo.png', 'response', 'sha1:LOGO', 1000],
    [2, 'http://a.example/logo.png', 'response', 'sha1:LOGO', 5],
  ];
  for (const [crawlId, url, recordType, payloadDigest, size] of rows) {
    db.prepare("INSERT INTO Capture (crawlId, url, mime, status, recordType, payloadDigest, size) VALUES (?, ?, 'text/html', 200, ?, ?, ?)").run(crawlId, url, recordType, payloadDigest, size);
  }
  const size = (sel: object, added: number[] = []) => {
    const { sql, bind } = collectionSizeSql(collectionSelectionSchema.parse(sel));
    return db.prepare(sql).get(...bind(1, added));
  };
  assert.deepEqual(size({ hosts: ['a.example'] }), { captures: 5, bytes: 1300 }, 'the four of a.example, and the logo\'s first response on the CDN, once');
  assert.deepEqual(size({ urlContains: '/copy' }), { captures: 2, bytes: 300 }, 'the revisit and the home page it repeats');
  assert.deepEqual(size({}), { captures: 6, bytes: 2300 }, 'the whole crawl: nothing more');
  assert.deepEqual(size({ hosts: ['nowhere.example'] }), { captures: 0, bytes: 0 });
  // Captures the collection adds (a redirect's target, a page's requisite), counted once with the
  // responses their revisits repeat; another crawl's ids count nothing.
  assert.deepEqual(size({ urlContains: 'a.example/copy' }, [2, 4, 7]), { captures: 4, bytes: 1300 }, 'the copy, the home page, the logo revisit and the CDN logo');
  assert.deepEqual(size({ hosts: ['nowhere.example'] }, [1]), { captures: 1, bytes: 1000 });
  db.close();
});
