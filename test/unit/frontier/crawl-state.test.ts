import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AHEAD_ROWS, CrawlState, MAX_AHEAD_ROWS, MAX_WHOLE_QUEUE_ROWS, SETTLED, comesBefore, isSettled } from '../../../worker/frontier/crawl-state';
import type { HeadRow } from '../../../worker/frontier/frontier-sql';

const politeness = { enabled: false, minDelayMs: 0, maxDelayMs: 0, delayFactor: 0 };
const state = () => new CrawlState(1, { maxPages: 1e6, maxPagesPerHost: 1e6, politeness }, () => undefined);
/** A rescoring crawl's state; `written` collects the rows whose held scores it hands to the table. */
const rescoringState = (written: HeadRow[] = []) =>
  new CrawlState(1, { maxPages: 1e6, maxPagesPerHost: 1e6, politeness, rescoring: true }, () => undefined, (r) => {
    written.push({ ...r });
    r.unwritten = null;
  });
const row = (seq: number, precedence: number): HeadRow => ({
  url: `http://a.test/${seq}`, depth: 0, kind: 'page', via_url: null, precedence, seq, attempts: 0, score_raw: precedence, score_count: 1, score_sum: precedence, scope_hops: 0, unwritten: null,
});
const seqs = (rows: readonly HeadRow[]) => rows.map((r) => r.seq);

test('a host holds its first queued URLs in queue order; one that comes after the last is left to the index', () => {
  const c = state();
  const e = c.host('a.test');
  assert.equal(c.offerHead(e, row(1, 0.5)), true, 'an empty queue: the first URL is the head');
  assert.equal(c.offerHead(e, row(2, 0.5)), false, 'same priority, discovered later: after the last held one');
  assert.deepEqual(seqs(e.ahead), [1]);
  assert.equal(c.offerHead(e, row(3, 0.2)), false);
  assert.equal(c.offerHead(e, row(4, 0.9)), true, 'a higher priority leads');
  assert.deepEqual([e.head?.seq, e.headPrecedence, e.headSeq], [4, 0.9, 4]);
  c.setAhead(e, [row(4, 0.9), row(1, 0.5), row(2, 0.5), row(3, 0.2)]);
  assert.equal(c.offerHead(e, row(5, 0.5)), false, 'between two held URLs: held, not the head');
  assert.deepEqual(seqs(e.ahead), [4, 1, 2, 5, 3]);
  for (let i = 1; i < e.ahead.length; i++) assert.ok(comesBefore(e.ahead[i - 1]!, e.ahead[i]!));
});

test('taking a held URL out moves the head on; taking one not held changes nothing', () => {
  const c = state();
  const e = c.host('a.test');
  c.setAhead(e, [row(4, 0.9), row(1, 0.5), row(2, 0.5)]);
  assert.equal(c.takeAhead(e, 7), undefined);
  assert.equal(c.takeAhead(e, 4)?.seq, 4);
  assert.deepEqual([e.head?.seq, e.headPrecedence, e.headSeq], [1, 0.5, 1]);
  c.takeAhead(e, 1);
  c.takeAhead(e, 2);
  assert.deepEqual([e.head, e.headPrecedence, e.headSeq], [null, 0, 0]);
});

test('a host holds at most twice AHEAD_ROWS URLs: the last ones go back to the index, the best stay', () => {
  const c = state();
  const e = c.host('a.test');
  c.setAhead(e, Array.from({ length: AHEAD_ROWS }, (_, i) => row(i + 1, 0.1)));
  for (let k = 0; k < 2 * AHEAD_ROWS; k++) c.offerHead(e, row(100 + k, 0.5 + k / 1000));
  assert.equal(e.ahead.length, 2 * AHEAD_ROWS);
  assert.equal(e.head?.seq, 100 + 2 * AHEAD_ROWS - 1, 'the best offered URL leads');
  assert.ok(e.ahead.every((r) => r.precedence >= 0.5), 'the low-priority tail was dropped, not the head');
});

test('past MAX_AHEAD_ROWS held across hosts, hosts read one URL at a time', () => {
  const c = state();
  const probe = c.host('probe.test');
  assert.equal(c.aheadWanted(probe), AHEAD_ROWS);
  const perHost = 2 * AHEAD_ROWS;
  for (let h = 0; h * perHost < MAX_AHEAD_ROWS; h++) {
    c.setAhead(c.host(`h${h}.test`), Array.from({ length: perHost }, (_, i) => row(h * perHost + i + 1, 0.5)));
  }
  assert.equal(c.aheadWanted(probe), 1);
  c.setAhead(c.host('h0.test'), []);
  assert.equal(c.aheadWanted(probe), AHEAD_ROWS, 'rows given back count down');
});

test('past MAX_AHEAD_ROWS, an offered URL shortens a host\'s list instead of growing it; a new head is kept alone', () => {
  const c = state();
  const perHost = 2 * AHEAD_ROWS;
  for (let h = 0; h * perHost < MAX_AHEAD_ROWS; h++) {
    c.setAhead(c.host(`h${h}.test`), Array.from({ length: perHost }, (_, i) => row(h * perHost + i + 1, 0.5)));
  }
  const f = c.host('h1.test'); // holds seqs 33…64 at 0.5
  assert.equal(c.offerHead(f, row(perHost + 2.5, 0.5)), false, 'between the 2nd and 3rd: not the head');
  assert.deepEqual(seqs(f.ahead), [perHost + 1, perHost + 2], 'the offered URL and those behind it are left to the index');
  c.setAhead(f, Array.from({ length: perHost }, (_, i) => row(perHost + i + 1, 0.5))); // back at the cap
  const e = c.host('h0.test');
  assert.equal(c.offerHead(e, row(1_000_000, 0.7)), true, 'a new head is still taken');
  assert.deepEqual(seqs(e.ahead), [1_000_000], 'and the rest left to the index');
});

test('in a rescoring crawl a host holds its whole queue, in order, and finds a held row by its seq', () => {
  const c = rescoringState();
  const e = c.host('a.test');
  const precedences = Array.from({ length: 100 }, (_, k) => ((k * 37) % 100) / 100);
  precedences.forEach((p, k) => {
    c.count(e, 'queued', 1); // counted first, as the frontier does
    c.offerHead(e, row(k + 1, p));
  });
  assert.equal(e.ahead.length, 100, 'past twice AHEAD_ROWS: the whole queue');
  for (let i = 1; i < e.ahead.length; i++) assert.ok(comesBefore(e.ahead[i - 1]!, e.ahead[i]!));
  assert.equal(c.aheadWanted(e), 100, 'a host that reads its queue again reads all of it');
  const middle = e.ahead[50]!;
  assert.equal(c.heldRow(middle.seq)?.row, middle);
  assert.equal(c.takeAhead(e, middle.seq), middle);
  assert.equal(c.heldRow(middle.seq), undefined);
  assert.equal(c.takeAhead(e, middle.seq), undefined, 'taken once');
  assert.equal(e.ahead.length, 99);
  for (let i = 1; i < e.ahead.length; i++) assert.ok(comesBefore(e.ahead[i - 1]!, e.ahead[i]!));
  c.count(e, 'queued', 10 * MAX_WHOLE_QUEUE_ROWS);
  assert.equal(c.aheadWanted(e), AHEAD_ROWS, 'a queue too long to hold is read a few URLs at a time');
});

test("a held row's unwritten score goes to the table when the row stops being held, and only then", () => {
  const written: HeadRow[] = [];
  const c = rescoringState(written);
  const e = c.host('a.test');
  for (let k = 0; k < 40; k++) {
    c.count(e, 'queued', 1);
    c.offerHead(e, row(k + 1, 0.9 - k / 100));
  }
  const last = e.ahead[39]!;
  last.unwritten = { breakdown: '{"why":"found again"}' };
  c.count(e, 'queued', 1); // a URL the index has and the host does not: it no longer holds its whole queue
  c.count(e, 'queued', 1);
  assert.equal(c.offerHead(e, row(100, 0.95)), true, 'a new head');
  assert.equal(e.ahead.length, 2 * AHEAD_ROWS, 'no longer whole: back to its first URLs');
  assert.deepEqual(written.map((r) => [r.seq, r.unwritten?.breakdown]), [[last.seq, '{"why":"found again"}']], 'the dropped row with a newer score, written once');
  assert.equal(last.unwritten, null);
  assert.equal(c.heldRow(last.seq), undefined);
});

test('a fetched page whose links the depth limit cut is marked with its depth, the nearest noted; only a link nearer than that tells it apart', () => {
  const c = state();
  const page = 'http://a.test/edge';
  c.noteLinksCut(page, 3);
  assert.equal(c.linksCutDeeper(page, 2), false, 'unknown to this process: not marked');
  c.knownUrls.set(page, 7);
  c.noteLinksCut(page, 3);
  assert.equal(c.linksCutDeeper(page, 2), false, 'still queued: not marked');
  c.markQueued(page, SETTLED);
  c.noteLinksCut(page, 3);
  assert.deepEqual([c.linksCutDeeper(page, 2), c.linksCutDeeper(page, 3), isSettled(c.knownUrls.get(page))], [true, false, true]);
  c.noteLinksCut(page, 4);
  assert.equal(c.linksCutDeeper(page, 3), false, 'a deeper note keeps the nearer depth');
  c.noteLinksCut(page, 0);
  assert.deepEqual([c.linksCutDeeper(page, 0), c.linksCutDeeper(page, 1)], [false, false]);
});
