/**
 * The seen-set knows a URL by its seenKey, the URL without session ids: the URLs of one page that
 * differ by them are one row, stored, leased and looked up as first found, also after a resume; a
 * database written while the key was the whole URL has its rows with session ids keyed anew once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hash } from 'node:crypto';
import { ensureFrontierTables } from '../../../worker/frontier/frontier-sql';
import { openSqlite } from '../../../worker/store/sqlite';
import { cand, tempFrontier } from './frontier-fixture';

const first = 'http://a.test/a;jsessionid=0A1B2C3D4E5F60718293A4B5C6D7E8F9';
const later = 'http://a.test/a;jsessionid=FFEEDDCCBBAA99887766554433221100';

test('a URL found again with another session id, or none, is a duplicate; the row keeps the URL first found', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const f = fx.open();
  assert.deepEqual(f.add(1, [cand(first), cand(later)]), { added: 1, duplicates: 1, budgetExcluded: 0 });
  assert.equal(f.knows(1, 'http://a.test/a'), true, 'the in-memory known set keys it so too');
  assert.deepEqual(f.add(1, [cand('http://a.test/a'), cand('http://a.test/a?PHPSESSID=9f8e7d6c5b4a39281706f5e4d3c2b1a0')]), { added: 0, duplicates: 2, budgetExcluded: 0 });
  assert.equal(f.lookup(1, later)?.url, first, 'a look-up by any of its URLs finds the row');
  const lease = f.next(fx.clock.now());
  assert.equal(lease?.url, first, 'fetched as first found');
  f.complete(lease!, { status: 200 });
  assert.equal(f.next(fx.clock.now()), null, 'nothing else queued');
  f.close();

  const g = fx.open();
  const again = 'http://a.test/a;jsessionid=00112233445566778899AABBCCDDEEFF';
  assert.deepEqual(g.add(1, [cand(again)]), { added: 0, duplicates: 1, budgetExcluded: 0 }, 'resumed: the table knows it by its key');
  assert.equal(g.counters(1).done, 1);
  g.close();
});

test('a database from before keeps its rows: those with session ids are keyed anew once, the others keep their hash', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const db = openSqlite(fx.path);
  ensureFrontierTables(db);
  // The database as an older Tidemark left it: no marker, every row keyed by its whole URL.
  db.exec('DROP TABLE frontier_seen_key_without_sessions');
  const wholeUrlHash = (url: string) => hash('sha1', url, 'buffer').readBigInt64LE(0);
  const insert = db.prepare(
    `INSERT INTO frontier_url (crawl_id, url_hash, url, host, depth, kind, state, precedence, score_raw, score_count, score_sum, discovered_at)
     VALUES (1, ?, ?, 'a.test', 1, 'page', ?, 0.5, 0.5, 1, 0.5, 0)`,
  );
  const rows: [string, number][] = [
    [first, 2], // fetched
    ['http://a.test/b;jsessionid=11111111111111111111111111111111', 0], // two rows of one page, both queued
    ['http://a.test/b;jsessionid=22222222222222222222222222222222', 0],
    ['http://a.test/c?page=2', 2], // no session id
  ];
  for (const [url, state] of rows) insert.run(wholeUrlHash(url), url, state);
  db.close();

  const f = fx.open();
  const stored = fx.handles.at(-1)!.prepare('SELECT url, url_hash FROM frontier_url ORDER BY seq').safeIntegers(true).all() as { url: string; url_hash: bigint }[];
  assert.equal(stored.length, 4, 'no row lost');
  assert.equal(stored[3]!.url_hash, wholeUrlHash('http://a.test/c?page=2'), 'a URL without session ids keeps its hash');
  assert.equal(stored[0]!.url_hash, wholeUrlHash('http://a.test/a'), 'one with a session id takes its key');
  assert.equal(stored[1]!.url_hash, wholeUrlHash('http://a.test/b'), 'the first row of a page takes the key');
  assert.equal(stored[2]!.url_hash, wholeUrlHash(rows[2]![0]), 'the second keeps its old hash');
  assert.equal(f.lookup(1, first)?.state, 'done', 'a look-up by its own URL finds it');
  const found = f.add(1, [cand(later), cand('http://a.test/b'), cand('http://a.test/c?page=2')]);
  assert.deepEqual(found, { added: 0, duplicates: 3, budgetExcluded: 0 }, 'variants of the stored pages are duplicates');
  f.close();
  const g = fx.open();
  assert.equal(g.add(1, [cand('http://a.test/b;jsessionid=33333333333333333333333333333333')]).added, 0, 'keyed once: a later open changes nothing');
  g.close();
});

test('a fetched page whose links the depth limit cut, found nearer under another session id, hands back the links it cut as the URL it was fetched as', (t) => {
  const fx = tempFrontier({ maxDepth: 5 });
  t.after(fx.cleanup);
  const page = 'http://a.test/p;jsessionid=0A1B2C3D4E5F60718293A4B5C6D7E8F9';
  const child = 'http://a.test/child';
  const f = fx.open();
  f.add(1, [cand(page, 0.5, { depth: 3, kind: 'navigation', viaUrl: 'http://a.test/chain/2', scopeHops: 0 })]);
  const lease = f.next(fx.clock.now())!;
  f.exclude(1, [{ url: child, host: 'a.test', reason: 'max-depth', depth: 4, viaUrl: page, kind: 'navigation', withinScopeShallower: true }]);
  f.complete(lease, { status: 200, durationMs: 0 });
  const nearer = (f2: typeof f, depth: number, session: string) =>
    f2.add(1, [cand(`http://a.test/p;jsessionid=${session}`, 0.5, { depth, kind: 'navigation', viaUrl: 'http://a.test/near', scopeHops: 0 })]).cutLinksFoundNearer;
  assert.deepEqual(nearer(f, 2, 'FFEEDDCCBBAA99887766554433221100')?.map((p) => [p.url, p.links]), [[page, [{ url: child, kind: 'navigation' }]]]);
  f.close();
  const g = fx.open();
  assert.deepEqual(nearer(g, 1, '00112233445566778899AABBCCDDEEFF')?.map((p) => [p.url, p.links]), [[page, [{ url: child, kind: 'navigation' }]]], 'after a restart too');
  g.close();
});
