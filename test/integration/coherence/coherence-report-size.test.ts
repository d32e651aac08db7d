/**
 * The coherence report of a capture of many pages stays the same size whatever their number, and
 * the discovery tree's rows come a page at a time, each page bounded, every row on exactly one page
 * (also while the crawl visits more). Over a real SQLite database made by the migrator, written by
 * the crawl's CoherenceStore, through the route handlers' domain calls.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { openSqlite } from '../../../worker/store/sqlite';
import { applyMigrations } from '../../../worker/store/migrator';
import { CoherenceStore } from '../../../worker/crawler/coherence-store';
import { coherenceReport, coherenceTreePage } from '../../../worker/coherence/coherence-report';
import type { PageFingerprint } from '../../../worker/coherence';

const fingerprint = (text: string): PageFingerprint => ({
  status: 200, etag: null, lastModified: null, payloadDigest: 'sha1:X', textDigest: text, sketch: [1, 2, 3], outLinks: [], contentTimestamp: null, fetchedAt: Date.parse('2026-11-25T08:00:00Z'),
});

const urlOf = (i: number) => (i === 0 ? 'http://quay.test/' : `http://quay.test/section-${i % 40}/page-${i}.html`);

/** Visits pages `from` to `to` - 1 of crawl `crawlId` (page 0 the seed, the others under it). */
function visit(store: CoherenceStore, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const url = urlOf(i);
    store.recordVisit({ url, parentUrl: i === 0 ? null : urlOf(0), depth: i === 0 ? 0 : 1, mime: 'text/html', fingerprint: fingerprint(url), text: 'tide words' });
  }
}

/** A capture of `pages` pages, its revisit pass begun and a tenth of them revisited with a change rate. */
function capture(db: ReturnType<typeof openSqlite>, crawlId: number, pages: number): CoherenceStore {
  const store = new CoherenceStore(db, crawlId);
  db.transaction(() => visit(store, 0, pages))();
  store.startRun(Date.parse('2026-11-25T09:00:00Z'));
  db.transaction(() => {
    for (let i = 0; i < pages; i += 10) {
      store.recordRevisit(urlOf(i), { at: Date.parse('2026-11-25T10:00:00Z'), fingerprint: fingerprint(urlOf(i)), text: 'tide words', changeRate: (i % 7) / 10,
        verdict: { status: 'unchanged', evidence: 'payload-digest', similarity: 1, linksAdded: [], linksRemoved: [], validatorsInconsistent: false } });
    }
  })();
  return store;
}

test('the report of 20,000 pages is as large as that of 2,000: counts and the histogram, no entry a page', () => {
  const db = openSqlite(':memory:');
  applyMigrations(db, resolve('prisma/migrations'));
  capture(db, 1, 2_000);
  capture(db, 2, 20_000);
  const few = JSON.stringify(coherenceReport(db, 1, '/nonexistent'));
  const many = JSON.parse(JSON.stringify(coherenceReport(db, 2, '/nonexistent'))) as ReturnType<typeof coherenceReport>;
  const size = JSON.stringify(many).length;
  // The whole tree was in it: 2.7 MB for these 20,000 pages on the code before (603 characters now).
  assert.ok(size < 3_000, `${size} characters for 20,000 pages`);
  assert.ok(Math.abs(size - few.length) < 40, `${few.length} characters for 2,000 pages, ${size} for 20,000: only the counts' digits differ`);
  assert.deepEqual([many.pages, many.revisited], [20_000, 2_000]);
  assert.equal(many.histogram.reduce((s, b) => s + b.count, 0), 2_000, 'the histogram counts every revisited page');
  db.close();
});

test('the tree\'s pages give every page exactly once, in visit order, each page bounded, while the crawl visits more', () => {
  const db = openSqlite(':memory:');
  applyMigrations(db, resolve('prisma/migrations'));
  const store = capture(db, 1, 12_345);
  const seen: string[] = [];
  let biggest = 0;
  let reads = 0;
  for (let after: number | null = 0; after !== null; reads++) {
    const page = coherenceTreePage(db, 1, after, 1_000);
    biggest = Math.max(biggest, JSON.stringify(page).length);
    assert.ok(page.items.length <= 1_000);
    seen.push(...page.items.map((r) => r.url));
    after = page.next;
    // The crawl goes on meanwhile: pages visited now come on a later page, once.
    if (reads === 3) db.transaction(() => visit(store, 12_345, 12_845))();
    assert.ok(reads < 20, 'the pages end');
  }
  assert.equal(seen.length, 12_845);
  assert.equal(new Set(seen).size, seen.length, 'no page twice');
  assert.deepEqual(seen.slice(0, 3), [urlOf(0), urlOf(1), urlOf(2)], 'in visit order');
  assert.ok(biggest < 1_000 * 200, `${biggest} characters a page`);
  const last = coherenceTreePage(db, 1, 0, 20_000);
  assert.equal(last.total, 12_845);
  db.close();
});
