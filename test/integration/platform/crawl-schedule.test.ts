/**
 * Scheduled crawls: an ICD's schedule set through its route (GET/PUT/DELETE /api/icds/:id/schedule),
 * and the server's scheduler (runDueSchedules) starting crawls of it when due, skipping a time while
 * the last crawl has not ended, once after a long downtime, and saying why when the ICD cannot be
 * crawled. Real parts: the route handlers over a migrated database (route-database.ts), the worker's
 * CrawlManager running the started crawl against a loopback site.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Services } from '../../../app/lib/server/services';
import { runDueSchedules } from '../../../app/lib/server/crawl-scheduler';
import { callRoute, routeDatabase, signedInAs, startWorker, type RouteHandler } from '../../support/route-database';
import { withSite } from '../../support/site-crawl';
import { until } from '../../support/engine-run';

let s: Services;
let archivist = { cookie: '', csrf: '' };
let curator = { cookie: '', csrf: '' };
const stops: (() => Promise<void>)[] = [];

before(async () => {
  s = await routeDatabase('tidemark-schedule-');
  archivist = await signedInAs(s, 'ann', 'archivist');
  curator = await signedInAs(s, 'cur', 'curator');
});
after(async () => {
  for (const stop of stops) await stop();
});

const call = <P>(handler: RouteHandler<P>, method: string, path: string, body: unknown, params: P) => callRoute(archivist, handler, method, path, body, params);
const schedule = () => import('../../../app/api/icds/[id]/schedule/route');
type ScheduleView = { cadence: string; time: string; timeZone: string; weekday: number | null; monthDay: number | null; enabled: boolean; description: string; nextRunAt: string | null; lastRunAt: string | null; lastCrawlId: number | null; lastSkip: string | null };

async function newIcd(name: string, fields: Record<string, unknown>): Promise<number> {
  const { POST } = await import('../../../app/api/icds/route');
  const r = await call(POST, 'POST', '/api/icds', { name, ...fields }, {});
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.id as number;
}
const crawlsOf = (icdId: number) => s.db.prepare('SELECT id, status, ownerId FROM Crawl WHERE icdId = ? ORDER BY id').all(icdId) as { id: number; status: string; ownerId: number | null }[];
const stored = (icdId: number) => s.db.prepare('SELECT nextRunAt FROM CrawlSchedule WHERE icdId = ?').get(icdId) as { nextRunAt: number } | undefined;

test('the schedule route: set, read, refused fields and roles, removed', async () => {
  const { GET, PUT, DELETE } = await schedule();
  const icdId = await newIcd('Weekly harbour', { seeds: ['http://127.0.0.1:9/'] });
  const params = { id: String(icdId) };
  const path = `/api/icds/${icdId}/schedule`;
  assert.deepEqual((await call(GET, 'GET', path, undefined, params)).body, { schedule: null });

  const before = Date.now();
  const put = await call(PUT, 'PUT', path, { cadence: 'weekly', time: '03:30', weekday: 1 }, params);
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const view = put.body.schedule as ScheduleView;
  assert.equal(view.description, 'every Monday at 03:30 UTC');
  assert.equal(view.timeZone, 'UTC', 'UTC when no zone is given');
  const next = new Date(view.nextRunAt!);
  assert.equal(next.getUTCDay(), 1);
  assert.equal(next.toISOString().slice(11, 16), '03:30');
  assert.ok(next.getTime() > before && next.getTime() <= before + 7 * 86_400_000, view.nextRunAt!);
  assert.deepEqual((await call(GET, 'GET', path, undefined, params)).body.schedule, view);
  const listed = async () => {
    const { GET: list } = await import('../../../app/api/icds/route');
    const rows = (await call(list, 'GET', '/api/icds', undefined, {})).body as unknown as { id: number; schedule: unknown }[];
    return rows.find((r) => r.id === icdId)!.schedule;
  };
  assert.deepEqual(await listed(), { description: 'every Monday at 03:30 UTC', nextRunAt: view.nextRunAt, timeZone: 'UTC' }, 'the ICD list says it too');

  const bad = await call(PUT, 'PUT', path, { cadence: 'monthly', time: '25:00', monthDay: 31 }, params);
  assert.equal(bad.status, 400);
  assert.deepEqual((bad.body.issues as { path: string[] }[]).map((i) => i.path.join('.')).sort(), ['monthDay', 'time']);
  const badZone = await call(PUT, 'PUT', path, { cadence: 'daily', time: '03:00', timeZone: 'Europe/Atlantis' }, params);
  assert.equal(badZone.status, 400);
  assert.deepEqual(badZone.body.issues, [{ path: ['timeZone'], message: 'Unknown time zone “Europe/Atlantis”: an IANA time zone such as Europe/Paris, America/New_York or UTC' }]);
  assert.deepEqual((await call(GET, 'GET', path, undefined, params)).body.schedule, view, 'the refused zone changed nothing');
  assert.equal((await call(PUT, 'PUT', '/api/icds/999999/schedule', { cadence: 'daily', time: '01:00' }, { id: '999999' })).status, 404);
  const asCurator = await callRoute(curator, PUT, 'PUT', path, { cadence: 'daily', time: '01:00' }, params);
  assert.equal(asCurator.status, 403, 'a curator may not start crawls, so not schedule them either');

  const off = await call(PUT, 'PUT', path, { cadence: 'weekly', time: '03:30', weekday: 1, enabled: false }, params);
  assert.equal((off.body.schedule as ScheduleView).nextRunAt, null);
  assert.deepEqual(await listed(), { description: 'every Monday at 03:30 UTC (off)', nextRunAt: null, timeZone: 'UTC' });
  assert.deepEqual(await runDueSchedules(s.prisma, new Date(Date.now() + 30 * 86_400_000)), [], 'a schedule turned off starts nothing');

  assert.equal((await callRoute(curator, DELETE, 'DELETE', path, undefined, params)).status, 403);
  assert.equal((await call(DELETE, 'DELETE', path, undefined, params)).status, 204);
  assert.deepEqual((await call(GET, 'GET', path, undefined, params)).body, { schedule: null });
  assert.equal(await listed(), null);
});

test('due times start crawls that the worker runs; a time while one is under way is skipped; one crawl after a long downtime', { timeout: 120_000 }, async () => {
  await withSite((req, res) => {
    res.setHeader('content-type', req.url === '/robots.txt' ? 'text/plain' : 'text/html');
    res.end(req.url === '/robots.txt' ? '' : '<!doctype html><title>Harbour</title><p>Tide tables.');
  }, async (origin) => {
    const { PUT } = await schedule();
    const icdId = await newIcd('Daily harbour', {
      seeds: [`${origin}/`], scope: { includeFavicon: false }, politeness: { minDelayMs: 0, maxDelayMs: 20, delayFactor: 0 }, aah: { enabled: false },
    });
    const put = await call(PUT, 'PUT', `/api/icds/${icdId}/schedule`, { cadence: 'daily', time: '02:00' }, { id: String(icdId) });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const due = new Date((put.body.schedule as ScheduleView).nextRunAt!);

    assert.deepEqual(await runDueSchedules(s.prisma, new Date(due.getTime() - 1000)), [], 'not due yet');
    assert.equal(crawlsOf(icdId).length, 0);

    const [first] = await runDueSchedules(s.prisma, due);
    assert.equal(first.skipped, null);
    const crawls = crawlsOf(icdId);
    assert.equal(crawls.length, 1);
    assert.equal(first.crawlId, crawls[0].id);
    const owner = s.db.prepare("SELECT id FROM User WHERE username = 'ann'").pluck().get();
    assert.equal(crawls[0].ownerId, owner, "the crawl is the schedule's owner's");
    assert.equal(new Date(stored(icdId)!.nextRunAt).toISOString(), new Date(due.getTime() + 86_400_000).toISOString());

    // The next day's time comes while that crawl has not ended (no worker has run it): skipped, and said so.
    const day2 = new Date(due.getTime() + 86_400_000);
    const [second] = await runDueSchedules(s.prisma, day2);
    assert.equal(second.crawlId, null);
    assert.match(second.skipped!, new RegExp(`Crawl #${first.crawlId} of this definition had not ended`));
    assert.equal(crawlsOf(icdId).length, 1);
    const { GET } = await schedule();
    const view = (await call(GET, 'GET', `/api/icds/${icdId}/schedule`, undefined, { id: String(icdId) })).body.schedule as ScheduleView;
    assert.equal(view.lastCrawlId, null);
    assert.equal(view.lastSkip, second.skipped);
    assert.equal(view.lastRunAt, day2.toISOString());

    // The worker runs the scheduled crawl as any other.
    const worker = await startWorker(s);
    stops.push(worker.stop);
    await until('the scheduled crawl has ended', () => crawlsOf(icdId)[0].status === 'finished', 60_000);
    assert.equal(s.db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ?').pluck().get(first.crawlId), 2, 'robots.txt and the seed');

    // The server was down for three weeks: one crawl when it is back, and the next time after now.
    const back = new Date(day2.getTime() + 21 * 86_400_000 + 3_600_000);
    const late = await runDueSchedules(s.prisma, back);
    assert.equal(late.length, 1);
    assert.equal(crawlsOf(icdId).length, 2);
    assert.equal(new Date(stored(icdId)!.nextRunAt).toISOString(), new Date(day2.getTime() + 22 * 86_400_000).toISOString());
  });
});

test('a schedule in Europe/Paris: stored with its zone, said in the ICD list, and stepped by the scheduler across the spring-forward day', async () => {
  const { GET, PUT } = await schedule();
  const icdId = await newIcd('Paris nights', { seeds: ['http://127.0.0.1:9/'], aah: { enabled: false } });
  const params = { id: String(icdId) };
  const path = `/api/icds/${icdId}/schedule`;
  const put = await call(PUT, 'PUT', path, { cadence: 'daily', time: '02:30', timeZone: 'europe/paris' }, params);
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const view = put.body.schedule as ScheduleView;
  assert.equal(view.timeZone, 'Europe/Paris', 'stored by its canonical name');
  assert.equal(view.description, 'every day at 02:30 Europe/Paris');
  const paris = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  assert.ok(['02:30', '03:00'].includes(paris.format(new Date(view.nextRunAt!))), `${view.nextRunAt} is 02:30 in Paris (03:00 on the day the clocks skip it)`);
  assert.equal(s.db.prepare('SELECT timeZone FROM CrawlSchedule WHERE icdId = ?').pluck().get(icdId), 'Europe/Paris');
  const { GET: list } = await import('../../../app/api/icds/route');
  const rows = (await call(list, 'GET', '/api/icds', undefined, {})).body as unknown as { id: number; schedule: { description: string } }[];
  assert.equal(rows.find((r) => r.id === icdId)!.schedule.description, 'every day at 02:30 Europe/Paris');

  // The day before the clocks go forward: due at 02:30 CET; next at 03:00 CEST, the change (02:30 never shows); then 02:30 CEST.
  await s.prisma.crawlSchedule.update({ where: { icdId }, data: { nextRunAt: new Date('2026-03-28T01:30:00Z') } });
  const [first] = await runDueSchedules(s.prisma, new Date('2026-03-28T01:30:10Z'));
  assert.equal(first.icdId, icdId);
  assert.equal(new Date(stored(icdId)!.nextRunAt).toISOString(), '2026-03-29T01:00:00.000Z');
  s.db.prepare("UPDATE Crawl SET status = 'finished' WHERE icdId = ?").run(icdId);
  await runDueSchedules(s.prisma, new Date('2026-03-29T01:00:05Z'));
  assert.equal(new Date(stored(icdId)!.nextRunAt).toISOString(), '2026-03-30T00:30:00.000Z');
  assert.equal(((await call(GET, 'GET', path, undefined, params)).body.schedule as ScheduleView).nextRunAt, '2026-03-30T00:30:00.000Z');
  const { DELETE } = await schedule();
  assert.equal((await call(DELETE, 'DELETE', path, undefined, params)).status, 204, 'gone, so the tests after it see only their own due times');
});

test('a due time whose ICD cannot be crawled says why, and the schedule goes on', async () => {
  const { PUT } = await schedule();
  const icdId = await newIcd('Missing knowledge base', { seeds: ['http://127.0.0.1:9/'], aah: { enabled: true, knowledgeBase: 'nowhere' } });
  await call(PUT, 'PUT', `/api/icds/${icdId}/schedule`, { cadence: 'monthly', time: '00:00', monthDay: 1 }, { id: String(icdId) });
  const due = new Date(stored(icdId)!.nextRunAt);
  // Other tests' schedules may be due by then too (from December on, a weekly one before the 1st): this one's result.
  const start = (await runDueSchedules(s.prisma, due)).find((r) => r.icdId === icdId)!;
  assert.equal(start.crawlId, null);
  assert.match(start.skipped!, /No knowledge base “nowhere” is stored/);
  assert.equal(crawlsOf(icdId).length, 0);
  const next = new Date(stored(icdId)!.nextRunAt);
  assert.equal(next.getUTCDate(), 1);
  assert.equal(next.getUTCMonth(), (due.getUTCMonth() + 1) % 12);
});

test('deleting the ICD deletes its schedule', async () => {
  const { PUT } = await schedule();
  const icdId = await newIcd('Short-lived', { seeds: ['http://127.0.0.1:9/'] });
  await call(PUT, 'PUT', `/api/icds/${icdId}/schedule`, { cadence: 'daily', time: '00:00' }, { id: String(icdId) });
  s.db.prepare('DELETE FROM Icd WHERE id = ?').run(icdId);
  assert.equal(stored(icdId), undefined);
});

test('a due time starts no crawl once the schedule\'s owner may no longer start crawls, or was deleted', async () => {
  const { PUT } = await schedule();
  const owner = await signedInAs(s, 'temp', 'archivist');
  const icdId = await newIcd('Owner gone', { seeds: ['http://127.0.0.1:9/'] });
  assert.equal((await callRoute(owner, PUT, 'PUT', `/api/icds/${icdId}/schedule`, { cadence: 'daily', time: '00:00' }, { id: String(icdId) })).status, 200);
  s.db.prepare("UPDATE User SET role = 'curator' WHERE username = 'temp'").run();
  let due = new Date(stored(icdId)!.nextRunAt);
  const demoted = (await runDueSchedules(s.prisma, due)).find((r) => r.icdId === icdId)!;
  assert.equal(demoted.crawlId, null);
  assert.match(demoted.skipped!, /temp, who set the schedule, may no longer start crawls/);
  s.db.prepare("DELETE FROM Session WHERE userId = (SELECT id FROM User WHERE username = 'temp')").run();
  s.db.prepare("DELETE FROM User WHERE username = 'temp'").run();
  due = new Date(stored(icdId)!.nextRunAt);
  const deleted = (await runDueSchedules(s.prisma, due)).find((r) => r.icdId === icdId)!;
  assert.match(deleted.skipped!, /the user who set the schedule was deleted/);
  assert.equal(crawlsOf(icdId).length, 0);
});

// A zone this server's Intl does not know (a row written by hand, or a database moved to a runtime
// with older zone data) made nextRunAfter throw: the whole pass failed at it, every 30 s, and the
// schedules due after it never ran.
test('a stored time zone the server does not know turns that schedule off, says why, and the other due schedules still run', async () => {
  const { GET, PUT } = await schedule();
  const odd = await newIcd('Olympus', { seeds: ['http://127.0.0.1:9/'], aah: { enabled: false } });
  const fine = await newIcd('Harbour at noon', { seeds: ['http://127.0.0.1:9/'], aah: { enabled: false } });
  for (const id of [odd, fine]) assert.equal((await call(PUT, 'PUT', `/api/icds/${id}/schedule`, { cadence: 'daily', time: '12:00' }, { id: String(id) })).status, 200);
  await s.prisma.crawlSchedule.update({ where: { icdId: odd }, data: { timeZone: 'Mars/Olympus_Mons', nextRunAt: new Date('2026-06-01T11:00:00Z') } });
  await s.prisma.crawlSchedule.update({ where: { icdId: fine }, data: { nextRunAt: new Date('2026-06-01T12:00:00Z') } });

  const results = await runDueSchedules(s.prisma, new Date('2026-06-01T12:00:00Z'));
  assert.deepEqual(results.map((r) => r.icdId), [odd, fine]);
  assert.equal(results[0].crawlId, null);
  assert.equal(results[0].skipped, 'No crawl started at 2026-06-01T11:00:00.000Z: this server knows no time zone “Mars/Olympus_Mons”; the schedule is off until someone sets it again with a known zone');
  assert.equal(crawlsOf(odd).length, 0);
  assert.notEqual(results[1].crawlId, null, 'the schedule due after it started its crawl');
  assert.equal(new Date(stored(fine)!.nextRunAt).toISOString(), '2026-06-02T12:00:00.000Z');
  const view = (await call(GET, 'GET', `/api/icds/${odd}/schedule`, undefined, { id: String(odd) })).body.schedule as ScheduleView;
  assert.deepEqual([view.enabled, view.nextRunAt, view.lastSkip], [false, null, results[0].skipped]);
  assert.deepEqual(await runDueSchedules(s.prisma, new Date('2026-06-01T12:00:01Z')), [], 'off: not tried again every pass');
  for (const id of [odd, fine]) s.db.prepare('DELETE FROM CrawlSchedule WHERE icdId = ?').run(id);
});
