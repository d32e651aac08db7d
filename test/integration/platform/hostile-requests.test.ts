/**
 * Requests a reviewer sent to the running server that hung, crashed a handler or were answered
 * wrongly: each is sent again here to the real server (server.ts) on 127.0.0.1.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { io } from 'socket.io-client';
import { signedInAdmin, startCockpit, type RunningCockpit } from '../../support/cockpit';
import { startFixtureSite, type FixtureSite } from '../../support/fixture-site';
import { ApiClient } from '../../support/api-client';

/** A plain GET with its own headers, given up after 5 s so a request left open fails the test. */
const get = (url: string, headers: Record<string, string>) => fetch(url, { headers, signal: AbortSignal.timeout(5000) });

describe('hostile and malformed requests to the real server', { timeout: 240_000 }, () => {
  let cockpit: RunningCockpit;
  let site: FixtureSite;
  let api: ApiClient;
  let crawlId = 0;

  before(async () => {
    site = await startFixtureSite({ pageCount: 5 });
    cockpit = await startCockpit();
    api = await signedInAdmin(cockpit);
    const icd = await api.json<{ id: number }>('POST', '/api/icds', { name: 'Hostile', seeds: [`${site.origin}/`], politeness: { minDelayMs: 0, maxDelayMs: 50, delayFactor: 0 } });
    crawlId = (await api.json<{ id: number }>('POST', '/api/crawls', { icdId: icd.id })).id;
    assert.equal(await api.waitForCrawlStatus(crawlId, ['finished']), 'finished');
  });

  after(async () => {
    await cockpit?.stop();
    await site?.close();
  });

  test('a session cookie that does not percent-decode is no session: 401, answered at once', async () => {
    for (const value of ['%', '%E0%A4%A']) {
      const cookie = `tidemark_session=${value}`;
      for (const path of ['/api/exports/1/files/x', '/api/crawls', '/api/auth/me']) {
        const res = await get(`${cockpit.url}${path}`, { cookie });
        assert.equal(res.status, 401, `${value} ${path}`);
        assert.deepEqual(await res.json(), { error: 'unauthenticated' });
      }
    }
    assert.doesNotMatch(cockpit.output(), /URIError|uncaughtException/);
  });

  test('a socket.io handshake with a garbage Origin is refused, not left unanswered', async () => {
    const connect = (transport: 'polling' | 'websocket', origin: string) =>
      new Promise<string>((resolve) => {
        const socket = io(cockpit.url, { transports: [transport], reconnection: false, extraHeaders: { cookie: api.cookie, origin } });
        const timer = setTimeout(() => (socket.close(), resolve('no answer')), 5000);
        socket.on('connect', () => (clearTimeout(timer), socket.close(), resolve('connected')));
        socket.on('connect_error', (err) => (clearTimeout(timer), socket.close(), resolve(`refused: ${err.message}`)));
      });
    for (const transport of ['polling', 'websocket'] as const) {
      assert.equal(await connect(transport, 'garbage'), 'refused: cross-site socket refused', transport);
      assert.equal(await connect(transport, 'http://evil.example'), 'refused: cross-site socket refused', transport);
      assert.equal(await connect(transport, cockpit.url), 'connected', transport);
    }
    assert.doesNotMatch(cockpit.output(), /Invalid URL|unhandledRejection/);
  });

  test('the same new user created four times at once: one 201, three 409 (the unique index decides)', async () => {
    const body = { username: 'twice', password: 'long-enough', role: 'curator' };
    const answers = await Promise.all([1, 2, 3, 4].map(() => api.request('POST', '/api/users', body)));
    assert.deepEqual(answers.map((r) => r.status).sort(), [201, 409, 409, 409]);
    const conflicts = await Promise.all(answers.filter((r) => r.status === 409).map((r) => r.json()));
    assert.deepEqual(conflicts, [1, 2, 3].map(() => ({ error: 'User twice exists' })));
    const users = await api.json<{ username: string }[]>('GET', '/api/users');
    assert.equal(users.filter((u) => u.username === 'twice').length, 1);
    // A name that differs only in case is the same name: admin, Admin and ADMIN could not be told apart.
    const again = await api.request('POST', '/api/users', { ...body, username: 'TWICE' });
    assert.equal(again.status, 409);
    assert.deepEqual(await again.json(), { error: 'User twice exists: names that differ only in case are one name' });
  });

  test('a page that is not a whole number from 1 with a bounded offset → 400, not a 500 from Prisma', async () => {
    for (const path of [`captures?page=1e300`, `log?page=1e20`, `objects?page=1e300`, `log?page=0x2`, `captures?page=1.5`]) {
      const res = await api.request('GET', `/api/crawls/${crawlId}/${path}`);
      assert.equal(res.status, 400, path);
      assert.match(((await res.json()) as { error: string }).error, /^page must be a whole number from 1/);
    }
    const second = await api.json<{ page: number; items: unknown[] }>('GET', `/api/crawls/${crawlId}/captures?page=2&pageSize=2`);
    assert.equal(second.page, 2);
    assert.equal(second.items.length, 2);
  });

  test('an id is decimal digits: /api/crawls/0x1 and the like are 404, not crawl 1', async () => {
    assert.equal((await api.request('GET', `/api/crawls/${crawlId}`)).status, 200);
    for (const id of [`0x${crawlId.toString(16)}`, `${crawlId}e0`, `0${crawlId}`, `${crawlId}.0`, `%20${crawlId}`]) {
      const res = await api.request('GET', `/api/crawls/${id}`);
      assert.equal(res.status, 404, id);
      assert.deepEqual(await res.json(), { error: 'not found' });
    }
  });

  test('every per-crawl route answers 404 for a crawl that does not exist, not 200 with empty lists', async () => {
    const views = ['', '/report', '/captures', '/log', '/objects', '/annotations', '/exports', '/exports/preview', '/exports/other-crawls', '/throughput', '/relevance', '/frontier/top', '/coherence', '/coherence/graphml'];
    for (const view of views) {
      assert.equal((await api.request('GET', `/api/crawls/${crawlId}${view}`)).status, 200, `crawl ${crawlId}${view}`);
      const res = await api.request('GET', `/api/crawls/99999999999${view}`);
      assert.equal(res.status, 404, `missing crawl${view}`);
      assert.deepEqual(await res.json(), { error: 'not found' }, view);
    }
    const writes: [string, unknown][] = [['/annotations', { text: 'a note' }], ['/exports', {}], ['/control', { action: 'pause' }], ['/urls', [{ url: `${site.origin}/x`, score: 1 }]]];
    for (const [view, body] of writes) assert.equal((await api.request('POST', `/api/crawls/99999999999${view}`, body)).status, 404, `POST missing crawl${view}`);
  });

  test('an export with selection null is of the whole crawl, as docs/api.md says', async () => {
    const res = await api.request('POST', `/api/crawls/${crawlId}/exports`, { selection: null });
    assert.equal(res.status, 201, await res.clone().text());
    const requested = (await res.json()) as { selection: unknown; format: string; status: string };
    assert.deepEqual([requested.selection, requested.format, requested.status], [null, 'warc', 'pending']);
    // The preview takes the same selection.
    const whole = await api.json<{ captures: number; bytes: number }>('GET', `/api/crawls/${crawlId}/exports/preview`);
    assert.ok(whole.captures > 0);
    assert.deepEqual(await api.json('GET', `/api/crawls/${crawlId}/exports/preview?selection=null`), whole);
  });

  test('an ICD past its list bounds is refused with 400 naming the fields', async () => {
    const seeds = Array.from({ length: 10_001 }, (_, i) => `https://h${i}.example.org/`);
    const topicTerms = Object.fromEntries(Array.from({ length: 5_001 }, (_, i) => [`term${i}`, 0.5]));
    const res = await api.request('POST', '/api/icds', { name: 'Too big', seeds, focus: { topicTerms } });
    assert.equal(res.status, 400);
    assert.deepEqual(((await res.json()) as { issues: unknown[] }).issues, [
      { path: ['seeds'], message: 'At most 10,000 seed URLs' },
      { path: ['focus', 'topicTerms'], message: 'At most 5,000 topic terms' },
    ]);
    assert.equal((await api.request('POST', '/api/icds', { name: 'Just fits', seeds: seeds.slice(1) })).status, 201);
  });

  test('scored URLs: one given twice counts once, and past 100,000 waiting for the worker the crawl answers 429', async () => {
    // A paused crawl applies no posted URLs, so they all wait.
    const icd = await api.json<{ id: number }>('POST', '/api/icds', { name: 'Intake', seeds: [`${site.origin}/`], politeness: { minDelayMs: 30_000, maxDelayMs: 30_000 } });
    const crawl = await api.json<{ id: number }>('POST', '/api/crawls', { icdId: icd.id });
    assert.equal((await api.request('POST', `/api/crawls/${crawl.id}/control`, { action: 'pause' })).status, 200);
    assert.equal(await api.waitForCrawlStatus(crawl.id, ['paused']), 'paused');
    const urls = `/api/crawls/${crawl.id}/urls`;
    const scored = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ url: `${site.origin}/intake/${from + i}`, score: 0.5 }));

    const twice = await api.request('POST', urls, [...scored(0, 5_000), ...scored(0, 5_000)]);
    assert.equal(twice.status, 202);
    assert.deepEqual(await twice.json(), { accepted: 5_000, excluded: 0, rejected: [] });
    for (let i = 0; i < 9; i++) assert.equal((await api.request('POST', urls, scored(10_000 * (i + 1), 10_000))).status, 202, `post ${i + 2}`);
    assert.equal((await api.request('POST', urls, scored(0, 5_000))).status, 202, 'up to 100,000 waiting');
    const full = await api.request('POST', urls, scored(200_000, 1));
    assert.equal(full.status, 429);
    assert.match(((await full.json()) as { error: string }).error, /^100,000 scored URLs of this crawl wait for its worker, and at most 100,000 may/);
    assert.equal((await api.request('POST', `/api/crawls/${crawl.id}/control`, { action: 'stop' })).status, 200);
  });

  test('a scope pattern that backtracks exponentially on a posted URL answers at once, with the verdict it should give', async () => {
    // `(a|a)*\.html$` passes the star-height check; on 40 a's not followed by .html it backtracks
    // 2^40 times on the server's thread, which held every request of the cockpit.
    const icd = await api.json<{ id: number }>('POST', '/api/icds', {
      name: 'Backtracking scope', seeds: [`${site.origin}/`], scope: { exclude: ['(a|a)*\\.html$'] }, politeness: { minDelayMs: 30_000, maxDelayMs: 30_000 },
    });
    const crawl = await api.json<{ id: number }>('POST', '/api/crawls', { icdId: icd.id });
    const a40 = 'a'.repeat(40);
    const res = await api.request('POST', `/api/crawls/${crawl.id}/urls`, [{ url: `${site.origin}/${a40}.htm`, score: 0.5 }, { url: `${site.origin}/${a40}.html`, score: 0.5 }]);
    assert.equal(res.status, 202);
    const body = (await res.json()) as { accepted: number; rejected: { url: string; reason: string }[] };
    assert.equal(body.accepted, 1);
    assert.deepEqual(body.rejected.map((r) => r.url), [`${site.origin}/${a40}.html`]);
    assert.equal((await api.request('POST', `/api/crawls/${crawl.id}/control`, { action: 'stop' })).status, 200);
  });
});
