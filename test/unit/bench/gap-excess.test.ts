import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gapExcess } from '../../../bench/support/gap-excess';

test('the excess over the delay is averaged per position over the hosts that have that gap', () => {
  // Host A: robots.txt at 0, pages at 250 (+50), 700 (+250), 905 (+5). Host B starts 10 ms later, one page fewer.
  const r = gapExcess([[700, 0, 905, 250], [10, 230, 640]], 200);
  assert.deepEqual(r.byPosition, [(50 + 20) / 2, (250 + 210) / 2, 5]);
  assert.equal(r.perHost, (50 + 250 + 5 + 20 + 210) / 2);
  assert.equal(r.startSpread, 10);
});

test('hosts without requests are left out, and no host at all gives zeros', () => {
  assert.deepEqual(gapExcess([[], [0, 200]], 200), { byPosition: [0], perHost: 0, startSpread: 0 });
  assert.deepEqual(gapExcess([], 200), { byPosition: [], perHost: 0, startSpread: 0 });
});
