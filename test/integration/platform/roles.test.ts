import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { io } from 'socket.io-client';
import { signedInAdmin, startCockpit, type RunningCockpit } from '../../support/cockpit';
import { startFixtureSite, type FixtureSite } from '../../support/fixture-site';
import { ApiClient } from '../../support/api-client';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('roles, sessions and CSRF on the real server', { timeout: 240_000 }, () => {
  let cockpit: RunningCockpit;
  let site: FixtureSite;
  let admin: ApiClient;
  const as: Record<'archivist' | 'curator' | 'manager', ApiClient> = {} as never;
  let icdId = 0;
  let finishedCrawlId = 0;

  before(async () => {
    site = await startFixtureSite({ pageCount: 5 });
    cockpit = await startCockpit();
    admin = await signedInAdmin(cockpit);
    for (const role of ['archivist', 'curator', 'manager'] as const) {
      const res = await admin.request('POST', '/api/users', { username: `${role}1`, password: `${role}-password`, role });
      assert.equal(res.status, 201, `create ${role}: ${await res.clone().text()}`);
      as[role] = new ApiClient(cockpit.url);
      assert.equal((await as[role].login(`${role}1`, `${role}-password`)).status, 200);
    }
    icdId = (await admin.json<{ id: number }>('POST', '/api/icds', { name: 'Roles', seeds: [`${site.origin}/`], politeness: { minDelayMs: 0, maxDelayMs: 50, delayFactor: 0 } })).id;
    finishedCrawlId = (await admin.json<{ id: number }>('POST', '/api/crawls', { icdId })).id;
    let status = '';
    for (const end = Date.now() + 60_000; Date.now() < end && status !== 'finished'; await sleep(200)) {
      status = (await admin.json<{ status: string }>('GET', `/api/crawls/${finishedCrawlId}`)).status;
    }
    assert.equal(status, 'finished');
  });

  after(async () => {
    await cockpit?.stop();
    await site?.close();
  });

  test('unauthenticated requests get 401', async () => {
    const anonymous = new ApiClient(cockpit.url);
    assert.equal((await anonymous.request('GET', '/api/crawls')).status, 401);
    assert.equal((await anonymous.request('GET', `/api/crawls/${finishedCrawlId}`)).status, 401);
    assert.equal((await anonymous.request('POST', '/api/icds', { name: 'x', seeds: ['http://127.0.0.1/'] })).status, 401);
    assert.equal((await anonymous.request('GET', '/api/exports/1/files/index.cdxj')).status, 401);
    assert.equal((await anonymous.request('GET', '/api/auth/me')).status, 401);
    assert.equal((await new ApiClient(cockpit.url).login('admin', 'wrong password')).status, 401);
  });

  test('a curator views but gets 403 on start, control and delete', async () => {
    const curator = as.curator;
    assert.equal((await curator.request('GET', `/api/crawls/${finishedCrawlId}`)).status, 200);
    assert.equal((await curator.request('POST', '/api/crawls', { icdId })).status, 403);
    assert.equal((await curator.request('POST', `/api/crawls/${finishedCrawlId}/control`, { action: 'pause' })).status, 403);
    assert.equal((await curator.request('DELETE', `/api/crawls/${finishedCrawlId}`)).status, 403);
    assert.equal((await curator.request('POST', `/api/crawls/${finishedCrawlId}/exports`)).status, 403);
    // The crawl is still there: the refusals changed nothing.
    assert.equal((await admin.request('GET', `/api/crawls/${finishedCrawlId}`)).status, 200);
  });

  test('an archivist may start a crawl but gets 403 on export and delete', async () => {
    const archivist = as.archivist;
    const started = await archivist.request('POST', '/api/crawls', { icdId });
    assert.equal(started.status, 201);
    assert.equal((await archivist.request('POST', `/api/crawls/${finishedCrawlId}/exports`)).status, 403);
    assert.equal((await archivist.request('GET', `/api/crawls/${finishedCrawlId}/exports`)).status, 403);
    assert.equal((await archivist.request('DELETE', `/api/crawls/${finishedCrawlId}`)).status, 403);
    const { id } = (await started.json()) as { id: number };
    assert.equal((await archivist.request('POST', `/api/crawls/${id}/control`, { action: 'stop' })).status, 200);
  });

  test('a manager can export (201), may not start a crawl, and may not manage users', async () => {
    const manager = as.manager;
    const res = await manager.request('POST', `/api/crawls/${finishedCrawlId}/exports`);
    assert.equal(res.status, 201);
    assert.equal(((await res.json()) as { status: string }).status, 'pending');
    assert.equal((await manager.request('POST', '/api/crawls', { icdId })).status, 403);
    assert.equal((await manager.request('POST', '/api/users', { username: 'x1', password: 'password-x', role: 'admin' })).status, 403);
  });

  test('a cross-site POST is refused with 403 and changes nothing', async () => {
    const before = (await admin.json<unknown[]>('GET', '/api/icds')).length;
    const icd = { name: 'Forged', seeds: [`${site.origin}/`] };
    const foreign = await admin.request('POST', '/api/icds', icd, { origin: 'http://evil.example' });
    assert.equal(foreign.status, 403);
    const noToken = await admin.request('POST', '/api/icds', icd, { csrf: false });
    assert.equal(noToken.status, 403);
    const bothMissing = await admin.request('POST', `/api/crawls/${finishedCrawlId}/control`, { action: 'stop' }, { csrf: false, origin: 'http://evil.example' });
    assert.equal(bothMissing.status, 403);
    assert.equal((await admin.json<unknown[]>('GET', '/api/icds')).length, before);
    // The same request from our own page with the token goes through.
    assert.equal((await admin.request('POST', '/api/icds', icd)).status, 201);
  });

  test('a socket.io connection without a session is refused; with one it connects', async () => {
    const connect = (cookie?: string) =>
      new Promise<string>((resolve) => {
        const socket = io(cockpit.url, { transports: ['websocket'], reconnection: false, extraHeaders: cookie ? { cookie } : {} });
        socket.on('connect', () => (socket.close(), resolve('connected')));
        socket.on('connect_error', (err) => (socket.close(), resolve(`refused: ${err.message}`)));
      });
    assert.match(await connect(), /^refused: unauthenticated/);
    assert.match(await connect('tidemark_session=not-a-session'), /^refused/);
    assert.equal(await connect(as.curator.cookie), 'connected');
  });
});
