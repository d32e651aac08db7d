import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addPoll, RECENT_POLLS, type FeedPoll } from '../../../worker/feeds';

const ok = (at: number, fresh: number, listed = 20): FeedPoll => ({ at, outcome: 'ok', status: 200, detail: null, listed, fresh });

test('a first poll starts the summary; later ones add to its totals and replace the last poll', () => {
  const first = addPoll(null, ok(1_000, 3));
  assert.deepEqual(first, { polls: 1, failedPolls: 0, articlesNew: 3, last: ok(1_000, 3), recentNew: [3] });
  const refused: FeedPoll = { at: 2_000, outcome: 'robots', status: null, detail: 'robots.txt disallows it', listed: 0, fresh: 0 };
  const second = addPoll(first, refused);
  assert.deepEqual(second, { polls: 2, failedPolls: 1, articlesNew: 3, last: refused, recentNew: [3, 0] });
  const third = addPoll(second, { at: 3_000, outcome: 'http-error', status: 503, detail: 'answered 503', listed: 0, fresh: 0 });
  assert.equal(third.failedPolls, 2);
  assert.equal(addPoll(third, ok(4_000, 2)).articlesNew, 5);
});

test('the recent polls are bounded, oldest dropped first', () => {
  let s = null;
  for (let i = 1; i <= RECENT_POLLS + 5; i++) s = addPoll(s, ok(i, i));
  assert.equal(s!.polls, RECENT_POLLS + 5);
  assert.deepEqual(s!.recentNew, Array.from({ length: RECENT_POLLS }, (_, i) => i + 6));
  assert.equal(s!.articlesNew, ((RECENT_POLLS + 5) * (RECENT_POLLS + 6)) / 2, 'the total counts every poll');
});

test('a feed found excluded (nothing requested) is its last outcome, but no poll, failed or not', () => {
  const first = addPoll(null, ok(1_000, 3));
  const excluded: FeedPoll = { at: 2_000, outcome: 'excluded', status: null, detail: "the crawl's exclude pattern /private/ matches it", listed: 0, fresh: 0 };
  assert.deepEqual(addPoll(first, excluded), { polls: 1, failedPolls: 0, articlesNew: 3, last: excluded, recentNew: [3, 0] });
  assert.deepEqual([addPoll(null, excluded).polls, addPoll(null, excluded).failedPolls], [0, 0]);
});
