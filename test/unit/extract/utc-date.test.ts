import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDateAsUtc } from '../../../worker/extract';
import { sitemapChangeRate } from '../../../worker/coherence';

/** Runs `fn` with the process's zone set to `timeZone`, as a server started with TZ=… has it. */
function inZone<T>(timeZone: string, fn: () => T): T {
  const before = process.env.TZ;
  process.env.TZ = timeZone;
  try {
    return fn();
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}

const ZONES = ['UTC', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham'];
const TEN_UTC = Date.UTC(2026, 2, 29, 10, 0, 0);

// Found by an exploratory session (time): Date.parse read a feed's or a sitemap's date written
// without a zone in the server's zone: `2026-03-29T10:00:00` was 14:00 UTC on a server run with
// TZ=America/New_York, 04:30 with TZ=Asia/Kolkata.
test('a feed or sitemap date without a zone is read in UTC, whatever the server\'s zone; one with a zone as it says', () => {
  for (const zone of ZONES) {
    inZone(zone, () => {
      for (const text of ['2026-03-29T10:00:00', '2026-03-29 10:00:00', 'Sun, 29 Mar 2026 10:00:00', '2026-03-29T10:00:00Z', 'Sun, 29 Mar 2026 10:00:00 GMT', ' March 29, 2026 10:00 AM ']) {
        assert.equal(parseDateAsUtc(text), TEN_UTC, `${text} in ${zone}`);
      }
      assert.equal(parseDateAsUtc('2026-03-29T10:00:00+05:30'), TEN_UTC - 5.5 * 3_600_000, zone);
      assert.equal(parseDateAsUtc('Sun, 29 Mar 2026 10:00:00 -0500'), TEN_UTC + 5 * 3_600_000, zone);
      assert.equal(parseDateAsUtc('Sun, 29 Mar 2026 10:00:00 EST'), TEN_UTC + 5 * 3_600_000, zone);
      assert.equal(parseDateAsUtc('29 Mar 2026'), Date.UTC(2026, 2, 29), zone);
      assert.equal(parseDateAsUtc('2026-03'), Date.UTC(2026, 2, 1), zone);
      assert.ok(Number.isNaN(parseDateAsUtc('soon')), zone);
    });
  }
});

test('a sitemap\'s lastmod without a zone gives the same change rate on a server in any zone', () => {
  const now = Date.UTC(2026, 2, 29, 12, 0, 0);
  const inUtc = sitemapChangeRate({ lastmod: '2026-03-29T10:00:00Z' }, now);
  assert.equal(inUtc, 12, 'two hours old: twelve changes a day');
  for (const zone of ZONES) assert.equal(inZone(zone, () => sitemapChangeRate({ lastmod: '2026-03-29T10:00:00' }, now)), inUtc, zone);
});
