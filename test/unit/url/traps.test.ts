import { test } from 'node:test';
import assert from 'node:assert/strict';
import { calendarKey, hasRepeatingPath, isGrowingQuery, TrapDetector } from '../../../worker/url';
import { numberedPathTemplate } from '../../../worker/url/trap-checks';

test('repeating path segments', () => {
  assert.equal(hasRepeatingPath('/a/b/a/b/a/b/'), true);
  assert.equal(hasRepeatingPath('/x/img/img/img/1.png'), true);
  assert.equal(hasRepeatingPath('/a/b/a/b/'), false);
  assert.equal(hasRepeatingPath('/docs/v1/guide/intro'), false);
  const traps = new TrapDetector();
  assert.equal(traps.check('http://example.org/a/b/a/b/a/b/'), 'trap-repeating-path');
  assert.equal(traps.check('http://example.org/a/b/'), null);
});

test('a segment recurring among others is no repeating path: only a segment or group repeated back to back is', () => {
  assert.equal(hasRepeatingPath('/forum/1/thread/1/page/1'), false);
  assert.equal(hasRepeatingPath('/showthread/2/post/2/reply/2/quote/2'), false);
  assert.equal(hasRepeatingPath('/a/b/x/a/b/y/a/b/'), false, 'a group three times, but not back to back');
  assert.equal(hasRepeatingPath('/x/x/x/'), true);
  assert.equal(hasRepeatingPath('/site/a/b/c/a/b/c/a/b/c/page.html'), true, 'a group of three segments');
  assert.equal(hasRepeatingPath('/forum/1/1/thread'), false);
  assert.equal(hasRepeatingPath('/forum/1/1/thread', 2), true);
  // Groups of up to 8 segments are looked for (the scan stays linear in a hostile path's length).
  const cycle = (width: number) => '/' + Array.from({ length: width * 3 }, (_, i) => `s${i % width}`).join('/');
  assert.equal(hasRepeatingPath(cycle(8)), true);
  assert.equal(hasRepeatingPath(cycle(9)), false);
  const traps = new TrapDetector();
  assert.equal(traps.check('http://forum.org/forum/1/thread/1/page/1'), null);
  assert.equal(traps.check('http://forum.org/forum/1/thread/1/page/1/1/1'), 'trap-repeating-path');
});

test('growing queries', () => {
  const u = (s: string) => new URL(s);
  assert.equal(isGrowingQuery(u('http://e.org/p?a=1&a=1'), u('http://e.org/p?a=1')), true);
  assert.equal(isGrowingQuery(u('http://e.org/p?q=x&page=2'), u('http://e.org/p?q=x')), false);
  assert.equal(isGrowingQuery(u('http://e.org/q?a=1&a=1'), u('http://e.org/p?a=1')), false);
  assert.equal(isGrowingQuery(u('http://e.org/p?s=1&s=1&s=1&s=1'), null), true);
  const many = Array.from({ length: 13 }, (_, i) => `k${i}=v`).join('&');
  const fewer = Array.from({ length: 12 }, (_, i) => `k${i}=v`).join('&');
  assert.equal(isGrowingQuery(u(`http://e.org/p?${many}`), u(`http://e.org/p?${fewer}`)), true);
  const traps = new TrapDetector();
  assert.equal(traps.check('http://e.org/list?f=a&f=b', 'http://e.org/list?f=a'), 'trap-growing-query');
  assert.equal(traps.check('http://e.org/list?f=a&p=2', 'http://e.org/list?f=a'), null);
});

test('calendar keys from paths and parameters', () => {
  assert.deepEqual(calendarKey(new URL('http://e.org/cal/2024/1/05')), { template: 'e.org/cal/{y}/{m}/{d}', date: '2024-01-05', year: 2024 });
  assert.deepEqual(calendarKey(new URL('http://e.org/events?month=2024-03&view=grid')), {
    template: 'e.org/events?month={date}&view=grid',
    date: 'month=2024-03',
    year: 2024,
  });
  assert.equal(calendarKey(new URL('http://e.org/archive/2024-01-05'))?.template, 'e.org/archive/{date}');
  assert.equal(calendarKey(new URL('http://e.org/2024/01/05/my-post'))?.template, 'e.org/{y}/{m}/{d}/my-post');
  assert.equal(calendarKey(new URL('http://e.org/products/12345?page=2')), null);
});

test('calendar traps: too many dates per template, or far-future years', () => {
  const traps = new TrapDetector({ maxDatesPerTemplate: 5, maxYear: 2030 });
  const day = (n: number) => `http://e.org/cal/2024/01/${String(n).padStart(2, '0')}`;
  for (let d = 1; d <= 5; d++) assert.equal(traps.check(day(d)), null);
  assert.equal(traps.check(day(1)), null, 'a date already seen stays allowed');
  assert.equal(traps.check(day(6)), 'trap-calendar');
  assert.equal(traps.check(day(2)), 'trap-calendar', 'the whole calendar is a trap once it overflowed');
  // blog posts each have their own template
  for (let d = 1; d <= 20; d++) assert.equal(traps.check(`http://e.org/2024/01/${String((d % 28) + 1).padStart(2, '0')}/post-${d}`), null);
  assert.equal(traps.check('http://e.org/cal?date=2099-01-01'), 'trap-calendar');
  assert.equal(traps.check('http://other.org/cal/2024/01/06'), null, 'counts are per host');
});

test('a four-digit number where a site numbers its pages is an ID, not a far-future year', () => {
  assert.equal(numberedPathTemplate('/p/17'), '/p/{y}');
  assert.equal(numberedPathTemplate('/p/2500'), null, 'could be a year: no evidence by itself');
  assert.equal(numberedPathTemplate('/p/abc'), null);
  assert.equal(calendarKey(new URL('http://e.org/p/2500'))?.bareNumberPath, '/p/{y}');
  assert.equal(calendarKey(new URL('http://e.org/cal/2024/01'))?.bareNumberPath, undefined, 'a year with a month is a date');

  const traps = new TrapDetector({ maxDatesPerTemplate: 400, maxYear: 2028 });
  // /p/0 … /p/5999, as a listing links them: none is a trap (2029–2999 were excluded as future years).
  for (let n = 0; n < 6000; n++) assert.equal(traps.check(`http://shop.org/p/${n}`), null, `/p/${n}`);
  // A year archive whose path holds no other numbers is still a calendar, bounded by the year window.
  assert.equal(traps.check('http://shop.org/archive/2027'), null);
  assert.equal(traps.check('http://shop.org/archive/2031'), 'trap-calendar');
  // The evidence is per host and survives a restart.
  assert.equal(traps.check('http://other.org/p/2500'), 'trap-calendar');
  const restored = TrapDetector.fromJSON(JSON.parse(JSON.stringify(traps)), { maxYear: 2028 });
  assert.equal(restored.check('http://shop.org/p/2999'), null);
});

test('8 bare digits are an ID as often as a date: no far-future calendar trap on first sight, only a walked run of them', () => {
  const traps = new TrapDetector({ maxDatesPerTemplate: 5, maxYear: 2030 });
  assert.equal(traps.check('http://shop.org/item/25010203'), null);
  assert.equal(traps.check('http://shop.org/item/12345678'), null);
  // Where the same path holds numbers that are no dates, date-like IDs do not fill a calendar.
  for (let d = 1; d <= 10; d++) assert.equal(traps.check(`http://shop.org/item/250102${String(d).padStart(2, '0')}`), null);
  // Real calendar shapes with a far-future date are still traps at once.
  assert.equal(traps.check('http://shop.org/cal/2501/02/03'), 'trap-calendar');
  assert.equal(traps.check('http://shop.org/archive/2501-02-03'), 'trap-calendar');
  assert.equal(traps.check('http://shop.org/events?date=25010203'), 'trap-calendar');
  // A calendar walked through bare 8-digit dates is a trap once it passes the cap, far-future or not.
  const day = (n: number) => `http://cal.org/day/250101${String(n).padStart(2, '0')}`;
  for (let d = 1; d <= 5; d++) assert.equal(traps.check(day(d)), null, day(d));
  assert.equal(traps.check(day(6)), 'trap-calendar');

  assert.deepEqual(calendarKey(new URL('http://e.org/item/25010203')), { template: 'e.org/item/{date}', date: '25010203', bareNumberPath: '/item/{y}' });
  assert.equal(calendarKey(new URL('http://e.org/item/2501-02-03'))?.year, 2501, 'a date with separators is a date');
  assert.equal(numberedPathTemplate('/item/12345678'), '/item/{y}');
  assert.equal(numberedPathTemplate('/item/25010203'), null, 'could be a date: no evidence by itself');
  assert.equal(numberedPathTemplate('/item/202401'), '/item/{y}', 'six digits are no date in a path');
});

test('query variants per path are capped per host', () => {
  const traps = new TrapDetector({ maxQueryVariantsPerPath: 3 });
  for (const q of ['a=1', 'a=2', 'a=3']) assert.equal(traps.check(`http://e.org/search?${q}`), null);
  assert.equal(traps.check('http://e.org/search?a=2'), null, 'a variant already counted');
  assert.equal(traps.check('http://e.org/search?a=4'), 'trap-query-variants');
  assert.equal(traps.check('http://e.org/other?a=4'), null);
  assert.equal(traps.check('http://f.org/search?a=4'), null);
  assert.equal(traps.check('http://e.org/search'), null, 'the path without a query is fine');
});

test('state round-trips through JSON', () => {
  const traps = new TrapDetector({ maxQueryVariantsPerPath: 2, maxDatesPerTemplate: 2 });
  traps.check('http://e.org/s?a=1');
  traps.check('http://e.org/s?a=2');
  traps.check('http://e.org/t?a=1');
  traps.check('http://e.org/c/2024/01/01');
  traps.check('http://e.org/c/2024/01/02');
  traps.check('http://e.org/c/2024/01/03');
  const json = JSON.parse(JSON.stringify(traps));
  const restored = TrapDetector.fromJSON(json, { maxQueryVariantsPerPath: 2, maxDatesPerTemplate: 2 });
  assert.deepEqual(restored.toJSON(), traps.toJSON());
  assert.equal(restored.check('http://e.org/s?a=1'), null);
  assert.equal(restored.check('http://e.org/s?a=3'), 'trap-query-variants');
  assert.equal(restored.check('http://e.org/t?a=2'), null);
  assert.equal(restored.check('http://e.org/c/2024/01/01'), 'trap-calendar');
});
