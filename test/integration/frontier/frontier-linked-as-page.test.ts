/**
 * A URL stored as a page requisite or a redirect (a frame) and then found by a link of another kind
 * (a navigation link) is a page: its row takes that kind whatever its state, so a WACZ lists it
 * (export-job.ts reachedAsRequisite), in the process that stored it and after a restart alike. Real
 * parts: the SQLite frontier on a file database, closed and opened again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SqliteFrontier } from '../../../worker/frontier';
import { cand, drain, tempFrontier } from './frontier-fixture';

const kindOf = (f: SqliteFrontier, url: string) => f.lookup(1, url)!.kind;
const FRAME = 'http://a.test/frame';
const QUEUED_FRAME = 'http://a.test/queued-frame';
const LATER_FRAME = 'http://a.test/later-frame';
const IMAGE = 'http://a.test/logo.png';
const PAGE = 'http://a.test/page';

test('a frame linked as a page takes the link\'s kind, fetched or queued, after a restart too; a page framed later stays a page', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  let f = fx.open();
  f.add(1, [cand(FRAME, 0.9, { kind: 'requisite' }), cand(IMAGE, 0.9, { kind: 'requisite' }), cand(PAGE, 0.9, { kind: 'navigation' })]);
  assert.deepEqual(drain(f, fx.clock.now()).sort(), [FRAME, IMAGE, PAGE].sort());
  f.add(1, [cand(QUEUED_FRAME, 0.5, { kind: 'requisite', depth: 1 })]);
  assert.equal(f.storedAsEmbed(1, FRAME), true);

  const linked = f.add(1, [cand(FRAME, 0.5, { kind: 'navigation', depth: 2 }), cand(QUEUED_FRAME, 0.5, { kind: 'navigation', depth: 2 }), cand(PAGE, 0.5, { kind: 'requisite', depth: 2 })]);
  assert.deepEqual(linked, { added: 0, duplicates: 3, budgetExcluded: 0 });
  assert.deepEqual([FRAME, QUEUED_FRAME, IMAGE, PAGE].map((u) => kindOf(f, u)), ['navigation', 'navigation', 'requisite', 'navigation']);
  assert.equal(f.lookup(1, FRAME)!.depth, 1, 'its depth and way stay');
  assert.equal(f.storedAsEmbed(1, FRAME), false, 'a page from then on: no more writes for links to it');

  f.add(1, [cand(LATER_FRAME, 0.5, { kind: 'requisite' })]);
  f.close();
  fx.handles[0]!.close();
  // A restarted process knows none of the rows: the table answers.
  f = fx.open();
  f.add(1, [cand(LATER_FRAME, 0.5, { kind: 'navigation', depth: 2 }), cand(IMAGE, 0.5, { kind: 'requisite', depth: 2 })]);
  assert.deepEqual([LATER_FRAME, IMAGE].map((u) => kindOf(f, u)), ['navigation', 'requisite']);
  f.close();
});
