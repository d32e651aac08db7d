import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD, signedInAdmin, startCockpit, type RunningCockpit } from '../../support/cockpit';
import { startFixtureSite, type FixtureSite } from '../../support/fixture-site';
import { ApiClient } from '../../support/api-client';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('cockpit API routes on the real server', { timeout: 240_000 }, () => {
  let cockpit: RunningCockpit;
  let site: FixtureSite;
  let api: ApiClient;


  before(async () => {
    site = await startFixtureSite({ pageCount: 80, delayMs: 60 });
    cockpit = await startCockpit();
    api = await signedInAdmin(cockpit);
  });

  after(async () => {
    await cockpit?.stop();
    await site?.close();
  });

  test('login sets an httpOnly SameSite=Lax session cookie; me and logout', async () => {
    const client = new ApiClient(cockpit.url);
    const res = await client.login('admin', ADMIN_PASSWORD);
    const cookie = res.headers.get('set-cookie') ?? '';
    assert.match(cookie, /^tidemark_session=[^;]+;/);
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    assert.match(cookie, /Path=\//);
    const body = (await res.json()) as { user: { username: string; role: string }; csrfToken: string };
    assert.deepEqual([body.user.username, body.user.role], ['admin', 'admin']);
    const me = await client.json<{ csrfToken: string }>('GET', '/api/auth/me');
    assert.equal(me.csrfToken, body.csrfToken);
    assert.equal((await client.request('POST', '/api/auth/logout')).status, 204);
    assert.equal((await client.request('GET', '/api/auth/me')).status, 401);
    // Login CSRF: a foreign or opaque origin cannot sign the browser in.
    for (const origin of ['http://evil.example', 'null']) {
      const forged = await fetch(`${cockpit.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) });
      assert.equal(forged.status, 403, origin);
      assert.equal(forged.headers.get('set-cookie'), null);
    }
  });

  test('users: create, list, duplicate name 409, invalid role 400', async () => {
    assert.equal((await api.request('POST', '/api/users', { username: 'ada', password: 'long-enough', role: 'curator' })).status, 201);
    assert.equal((await api.request('POST', '/api/users', { username: 'ada', password: 'long-enough', role: 'curator' })).status, 409);
    assert.equal((await api.request('POST', '/api/users', { username: 'bob', password: 'long-enough', role: 'king' })).status, 400);
    const users = await api.json<{ username: string; passwordHash?: string }[]>('GET', '/api/users');
    assert.ok(users.some((u) => u.username === 'ada'));
    assert.ok(users.every((u) => u.passwordHash === undefined), 'no password hashes leave the server');
    assert.equal((await new ApiClient(cockpit.url).login('ada', 'long-enough')).status, 200);
  });

  test('accounts: a user changes their own password, an admin changes a role or resets a password, the last admin stays', async () => {
    const created = await api.json<{ id: number }>('POST', '/api/users', { username: 'grace', password: 'first-password', role: 'archivist' });
    const here = new ApiClient(cockpit.url);
    const elsewhere = new ApiClient(cockpit.url);
    assert.equal((await here.login('grace', 'first-password')).status, 200);
    assert.equal((await elsewhere.login('grace', 'first-password')).status, 200);

    const wrong = await here.request('POST', '/api/auth/password', { currentPassword: 'guess', newPassword: 'second-password' });
    assert.equal(wrong.status, 400);
    assert.deepEqual(((await wrong.json()) as { issues: unknown }).issues, [{ path: ['currentPassword'], message: 'Not your current password' }]);
    assert.equal((await here.request('POST', '/api/auth/password', { currentPassword: 'first-password', newPassword: 'short' })).status, 400);
    assert.equal((await here.request('POST', '/api/auth/password', { currentPassword: 'first-password', newPassword: 'second-password' })).status, 204);
    assert.equal((await here.request('GET', '/api/auth/me')).status, 200, 'this session goes on');
    assert.equal((await elsewhere.request('GET', '/api/auth/me')).status, 401, 'the other session ended');
    assert.equal((await new ApiClient(cockpit.url).login('grace', 'first-password')).status, 401);
    assert.equal((await new ApiClient(cockpit.url).login('grace', 'second-password')).status, 200);

    // A new role applies to the next request.
    assert.equal((await here.request('POST', '/api/icds', { name: 'Mine', seeds: ['https://a.example.org/'] })).status, 201);
    assert.equal((await api.json<{ role: string }>('PATCH', `/api/users/${created.id}`, { role: 'curator' })).role, 'curator');
    assert.equal((await here.request('POST', '/api/icds', { name: 'Mine too', seeds: ['https://a.example.org/'] })).status, 403);
    assert.equal((await here.request('PATCH', `/api/users/${created.id}`, { role: 'admin' })).status, 403, 'only admins manage users');

    // A reset password ends every session of the user.
    assert.equal((await api.request('PATCH', `/api/users/${created.id}`, { password: 'third-password' })).status, 200);
    assert.equal((await here.request('GET', '/api/auth/me')).status, 401);
    assert.equal((await new ApiClient(cockpit.url).login('grace', 'third-password')).status, 200);
    assert.equal((await api.request('PATCH', `/api/users/${created.id}`, {})).status, 400, 'nothing to change');
    assert.equal((await api.request('PATCH', '/api/users/99999', { role: 'curator' })).status, 404);

    // The only admin cannot give up the role; once there is another, it can.
    const users = await api.json<{ id: number; username: string; role: string }[]>('GET', '/api/users');
    const admin = users.find((u) => u.username === 'admin')!;
    const refused = await api.request('PATCH', `/api/users/${admin.id}`, { role: 'manager' });
    assert.equal(refused.status, 409);
    assert.equal((await api.json<{ role: string }>('PATCH', `/api/users/${created.id}`, { role: 'admin' })).role, 'admin');
    assert.equal((await api.request('PATCH', `/api/users/${created.id}`, { role: 'archivist' })).status, 200, 'not the last admin');
  });

  test('an ICD with an invalid seed URL is refused with 400 naming the field', async () => {
    const res = await api.request('POST', '/api/icds', { name: 'Bad', seeds: ['not a url'] });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: string; issues: { path: (string | number)[] }[] };
    assert.equal(body.error, 'invalid');
    assert.ok(body.issues.some((i) => i.path[0] === 'seeds'), JSON.stringify(body.issues));
  });

  test('an ICD with a misspelt field is refused with 400 naming it, on create and on save', async () => {
    const misspelt = { name: 'Typo', seeds: ['https://a.example.org/'], scope: { maxPage: 50 } };
    for (const res of [await api.request('POST', '/api/icds', misspelt), await api.request('PUT', '/api/icds/1', misspelt)]) {
      assert.equal(res.status, 400);
      const body = (await res.json()) as { issues: { path: string[]; message: string }[] };
      assert.deepEqual(body.issues.map((i) => [i.path.join('.'), i.message]), [['scope.maxPage', 'Unknown field (misspelt?): it would be ignored']]);
    }
  });

  test('focus settings that can never work are refused with 400 at their fields, on create and on save', async () => {
    const focus = { enabled: true, keywords: [{ term: 'harbour' }, { term: 'The Who' }], moduleWeights: { text: 0, urlPattern: 0, spam: 0, entity: 0, aah: 0 }, relevanceThreshold: 1 };
    const icd = { name: 'Unfocused', seeds: ['https://a.example.org/'], focus };
    for (const res of [await api.request('POST', '/api/icds', icd), await api.request('PUT', '/api/icds/1', icd)]) {
      assert.equal(res.status, 400);
      const body = (await res.json()) as { issues: { path: string[]; message: string }[] };
      assert.deepEqual(body.issues.map((i) => i.path.join('.')), ['focus.moduleWeights.text', 'focus.relevanceThreshold', 'focus.keywords.1.term']);
    }
  });

  test('a body over 32 MB is refused with 413, whether it declares its length or not', async () => {
    const big = JSON.stringify({ name: 'Big', seeds: ['http://127.0.0.1/'], notes: 'x'.repeat(33 * 2 ** 20) });
    const declared = await api.request('POST', '/api/icds', JSON.parse(big));
    assert.equal(declared.status, 413);
    assert.match(((await declared.json()) as { error: string }).error, /larger than 32 MB/);
    // Streamed (chunked, no Content-Length): counted as it arrives.
    const chunks = (function* () {
      for (let sent = 0; sent < 33 * 2 ** 20; sent += 2 ** 20) yield new TextEncoder().encode(sent === 0 ? '{"name":"' : 'x'.repeat(2 ** 20));
    })();
    const stream = new ReadableStream({ pull: (c) => { const next = chunks.next(); if (next.done) c.close(); else c.enqueue(next.value); } });
    const streamed = await fetch(`${cockpit.url}/api/icds`, {
      method: 'POST', body: stream, duplex: 'half',
      headers: { origin: cockpit.url, cookie: api.cookie, 'x-csrf-token': api.csrfToken, 'content-type': 'application/json' },
    } as RequestInit);
    assert.equal(streamed.status, 413);
    // A body under the limit is read and judged by the schema (a JSON string is no ICD).
    assert.equal((await api.request('POST', '/api/icds', 'x'.repeat(2 ** 20))).status, 400);
  });

  test('crawl life cycle: delete refused while running, pause, resume, stop, then delete', async () => {
    const icd = await api.json<{ id: number }>('POST', '/api/icds', {
      name: 'Life cycle',
      seeds: [`${site.origin}/`],
      politeness: { minDelayMs: 100, maxDelayMs: 200, delayFactor: 0, concurrency: 1 },
    });
    const edited = await api.json<{ name: string }>('PUT', `/api/icds/${icd.id}`, { name: 'Life cycle 2', seeds: [`${site.origin}/`], politeness: { minDelayMs: 100, maxDelayMs: 200, delayFactor: 0, concurrency: 1 } });
    assert.equal(edited.name, 'Life cycle 2');
    const crawl = await api.json<{ id: number; name: string; desired: string }>('POST', '/api/crawls', { icdId: icd.id });
    assert.equal(crawl.name, 'Life cycle 2', 'the crawl copies the ICD name');
    assert.equal(crawl.desired, 'run');
    assert.equal(await api.waitForCrawlStatus(crawl.id, ['running']), 'running');
    // A capture before the pause: on a loaded machine, pause, resume and stop could all come before
    // the first fetch ended (a pause cuts fetches off and queues them again), leaving none to list.
    const firstCapture = async () => (await api.json<{ total: number }>('GET', `/api/crawls/${crawl.id}/captures?pageSize=1`)).total >= 1;
    for (const end = Date.now() + 30_000; !(await firstCapture()); await new Promise((r) => setTimeout(r, 100))) {
      if (Date.now() > end) assert.fail('the crawl captured nothing in 30 s');
    }
    assert.equal((await api.request('DELETE', `/api/crawls/${crawl.id}`)).status, 409);
    assert.equal((await api.request('DELETE', `/api/icds/${icd.id}`)).status, 409);

    assert.equal((await api.json<{ desired: string }>('POST', `/api/crawls/${crawl.id}/control`, { action: 'pause' })).desired, 'pause');
    assert.equal(await api.waitForCrawlStatus(crawl.id, ['paused']), 'paused');
    assert.equal((await api.json<{ desired: string }>('POST', `/api/crawls/${crawl.id}/control`, { action: 'resume' })).desired, 'run');
    assert.equal(await api.waitForCrawlStatus(crawl.id, ['running']), 'running');
    assert.equal((await api.request('POST', `/api/crawls/${crawl.id}/control`, { action: 'fly' })).status, 400);
    await api.json('POST', `/api/crawls/${crawl.id}/control`, { action: 'stop' });
    assert.equal(await api.waitForCrawlStatus(crawl.id, ['stopped']), 'stopped');
    assert.equal((await api.request('POST', `/api/crawls/${crawl.id}/control`, { action: 'resume' })).status, 409);
    assert.equal((await api.request('DELETE', `/api/icds/${icd.id}`)).status, 409, 'the ICD still has a crawl');

    const captures = await api.json<{ items: { url: string }[]; total: number; page: number; pageSize: number }>('GET', `/api/crawls/${crawl.id}/captures?pageSize=2`);
    assert.ok(captures.total >= 1);
    assert.ok(captures.items.length <= 2);
    const filtered = await api.json<{ items: { url: string }[] }>('GET', `/api/crawls/${crawl.id}/captures?q=page/1.html`);
    assert.ok(filtered.items.every((c) => c.url.includes('page/1.html')));
    const log = await api.json<{ items: unknown[]; total: number }>('GET', `/api/crawls/${crawl.id}/log`);
    assert.ok(log.total >= 1);

    assert.equal((await api.request('DELETE', `/api/crawls/${crawl.id}`)).status, 204);
    assert.equal((await api.request('GET', `/api/crawls/${crawl.id}`)).status, 404);
    assert.equal((await api.request('DELETE', `/api/icds/${icd.id}`)).status, 204);
    assert.equal((await api.request('GET', `/api/icds/${icd.id}`)).status, 404);
  });

  test('the crawl log lists every outcome, robots exclusions included, filtered by outcome and URL', async (t) => {
    const guarded = await startFixtureSite({ pageCount: 6, robots: 'User-agent: *\nDisallow: /page/2.html\n' });
    t.after(() => guarded.close());
    const icd = await api.json<{ id: number }>('POST', '/api/icds', { name: 'Guarded', seeds: [`${guarded.origin}/`], scope: { includeFavicon: false }, politeness: { minDelayMs: 0, maxDelayMs: 50, delayFactor: 0 } });
    const crawl = await api.json<{ id: number }>('POST', '/api/crawls', { icdId: icd.id });
    assert.equal(await api.waitForCrawlStatus(crawl.id, ['finished']), 'finished');
    type Log = { items: { url: string; outcome: string; status: number | null; message: string | null }[]; total: number; outcomes: { outcome: string; count: number }[] };
    const log = await api.json<Log>('GET', `/api/crawls/${crawl.id}/log?pageSize=100`);
    const counts = Object.fromEntries(log.outcomes.map((o) => [o.outcome, o.count]));
    // robots.txt itself, /, and the pages it allows: 0 (linked from 3), 1, 3, 4, 5.
    assert.deepEqual(counts, { ok: 7, robots: 1 });
    assert.deepEqual(log.outcomes.map((o) => o.outcome), ['ok', 'robots'], 'most frequent first');
    assert.equal(log.total, 8);
    const excluded = await api.json<Log>('GET', `/api/crawls/${crawl.id}/log?outcome=robots`);
    assert.deepEqual(excluded.items.map((e) => [e.url, e.status, e.message]), [[`${guarded.origin}/page/2.html`, null, 'disallowed by robots.txt']]);
    assert.equal(excluded.total, 1);
    const one = await api.json<Log>('GET', `/api/crawls/${crawl.id}/log?q=page/3.html`);
    assert.deepEqual(one.items.map((e) => [e.url, e.outcome, e.status]), [[`${guarded.origin}/page/3.html`, 'ok', 200]]);
    assert.equal((await api.json<Log>('GET', `/api/crawls/${crawl.id}/log?outcome=ok&q=page/2.html`)).total, 0);
    // `upTo` pins the pages to the entries up to one id (as if the four newest came after it).
    type PinnedLog = Omit<Log, 'items'> & { items: { id: number; outcome: string }[]; newer: number };
    const entries = (await api.json<PinnedLog>('GET', `/api/crawls/${crawl.id}/log?pageSize=100`)).items;
    const upTo = entries[4]!.id;
    const pinned = await api.json<PinnedLog>('GET', `/api/crawls/${crawl.id}/log?pageSize=2&page=2&upTo=${upTo}`);
    assert.deepEqual(pinned.items.map((e) => e.id), [entries[6]!.id, entries[7]!.id]);
    assert.equal(pinned.total, 4);
    assert.equal(pinned.newer, 4);
    const pinnedOk = await api.json<PinnedLog>('GET', `/api/crawls/${crawl.id}/log?outcome=ok&upTo=${upTo}`);
    assert.equal(pinnedOk.newer, entries.slice(0, 4).filter((e) => e.outcome === 'ok').length, 'newer entries matching the filter');
    assert.equal((await api.json<PinnedLog>('GET', `/api/crawls/${crawl.id}/log`)).newer, 0);
    assert.equal((await api.request('GET', `/api/crawls/${crawl.id}/log?upTo=abc`)).status, 400);
    // So do the captures.
    const captures = (await api.json<PinnedLog>('GET', `/api/crawls/${crawl.id}/captures?pageSize=100`)).items;
    const pinnedCaptures = await api.json<PinnedLog>('GET', `/api/crawls/${crawl.id}/captures?pageSize=2&page=2&upTo=${captures[2]!.id}`);
    assert.deepEqual(pinnedCaptures.items.map((c) => c.id), [captures[4]!.id, captures[5]!.id]);
    assert.equal(pinnedCaptures.total, captures.length - 2);
    assert.equal(pinnedCaptures.newer, 2);
    assert.equal((await api.request('GET', `/api/crawls/${crawl.id}/captures?upTo=0`)).status, 400);

    // The reports group the same crawl by host, MIME type and status.
    type Report = {
      hosts: { host: string; fetches: number; ok: number; failed: number; excluded: number; bytes: number }[];
      hostCount: number;
      mimeTypes: { mime: string | null; captures: number }[];
      statuses: { status: number | null; entries: number }[];
    };
    const report = await api.json<Report>('GET', `/api/crawls/${crawl.id}/report`);
    const host = new URL(guarded.origin).host;
    assert.equal(report.hostCount, 1);
    // The page robots.txt refused was never requested: an exclusion, not a fetch.
    assert.deepEqual(report.hosts.map(({ bytes: _, ...h }) => h), [{ host, fetches: 7, ok: 7, failed: 0, excluded: 1, notRequested: 0 }]);
    assert.equal(report.hosts[0]!.bytes, log.items.reduce((n, e) => n + (e as { size?: number }).size!, 0));
    assert.deepEqual(Object.fromEntries(report.mimeTypes.map((m) => [m.mime, m.captures])), { 'text/html': 6, 'text/plain': 1 });
    assert.deepEqual(report.statuses, [{ status: 200, entries: 7 }, { status: null, entries: 1 }]);

    // The charts' history, rebuilt from the captures: it starts at zero and ends with all of them.
    type Point = { at: number; pagesPerSecond: number; fetched: number; statusClasses: { [cls: string]: number } };
    const history = await api.json<{ widthMs: number; points: Point[] }>('GET', `/api/crawls/${crawl.id}/throughput`);
    assert.equal(history.widthMs, 1000);
    assert.ok(history.points.length >= 2);
    assert.equal(history.points[0]!.fetched, 0);
    assert.deepEqual(history.points.at(-1)!.statusClasses, { '2xx': 7, '3xx': 0, '4xx': 0, '5xx': 0 });
    assert.equal(history.points.at(-1)!.fetched, 7);
    // Each point's rate is of the captures of the 5 s before it, as the live counter's.
    const fetchedAt = (i: number) => history.points[Math.max(0, i)]!.fetched;
    history.points.slice(1).forEach((p, k) => assert.equal(p.pagesPerSecond * 5, fetchedAt(k + 1) - fetchedAt(k + 1 - 5), `point ${k + 1}`));
    assert.ok(history.points.every((p, i) => i === 0 || p.at - history.points[i - 1]!.at === history.widthMs));
    assert.equal((await api.request('GET', `/api/crawls/${crawl.id + 1000}/throughput`)).status, 404);
    // How long it ran, from its runs (the cockpit shows a stopped crawl's average pages/s with it).
    const { runSeconds } = await api.json<{ runSeconds: number }>('GET', `/api/crawls/${crawl.id}`);
    const spanSeconds = (history.points.at(-1)!.at - history.points[0]!.at) / 1000;
    assert.ok(runSeconds > 0 && runSeconds < 120, `ran ${runSeconds} s`);
    assert.ok(runSeconds + 1 >= spanSeconds - 1, `ran ${runSeconds} s, captures over ${spanSeconds} s`);

    // A capture's stored record, read back from its WARC file; its payload as a download.
    const page3 = `${guarded.origin}/page/3.html`;
    const [capture] = (await api.json<{ items: { id: number; url: string }[] }>('GET', `/api/crawls/${crawl.id}/captures?q=page/3.html`)).items;
    assert.equal(capture?.url, page3);
    type Record = { warcHeaders: [string, string][]; httpHead: string; payloadBytes: number; preview: string | null; previewTruncated: boolean };
    const record = await api.json<Record>('GET', `/api/crawls/${crawl.id}/captures/${capture.id}`);
    const warc = new Map(record.warcHeaders);
    assert.equal(warc.get('WARC-Type'), 'response');
    assert.equal(warc.get('WARC-Target-URI'), page3);
    assert.match(record.httpHead, /^HTTP\/1\.1 200 OK\r?\n[\s\S]*content-type: text\/html/i);
    assert.match(record.preview ?? '', /<title>Page 3<\/title>/);
    assert.equal(record.previewTruncated, false);
    const download = await api.request('GET', `/api/crawls/${crawl.id}/captures/${capture.id}?payload=1`);
    assert.equal(download.headers.get('content-disposition'), `attachment; filename="3.html"; filename*=UTF-8''3.html`);
    assert.equal(await download.text(), record.preview);
    assert.equal(Buffer.byteLength(record.preview!), record.payloadBytes);
    assert.equal((await api.request('GET', `/api/crawls/${crawl.id + 1000}/captures/${capture.id}`)).status, 404, 'a capture of another crawl');

    // Annotations: on the crawl and on a capture; writing needs "annotate" (an archivist has not).
    type Note = { id: number; captureId: number | null; url: string | null; username: string | null; text: string };
    const onCapture = await api.json<Note>('POST', `/api/crawls/${crawl.id}/annotations`, { captureId: capture.id, text: 'Menu cut off' });
    const { captureId, url, username, text } = onCapture;
    assert.deepEqual({ captureId, url, username, text }, { captureId: capture.id, url: page3, username: 'admin', text: 'Menu cut off' });
    await api.json('POST', `/api/crawls/${crawl.id}/annotations`, { text: '  Robots kept page 2 out  ' });
    const all = await api.json<Note[]>('GET', `/api/crawls/${crawl.id}/annotations`);
    assert.deepEqual(all.map((a) => [a.text, a.url]), [['Robots kept page 2 out', null], ['Menu cut off', page3]], 'newest first, trimmed');
    assert.deepEqual((await api.json<Note[]>('GET', `/api/crawls/${crawl.id}/annotations?captureId=${capture.id}`)).map((a) => a.text), ['Menu cut off']);
    assert.equal((await api.request('POST', `/api/crawls/${crawl.id}/annotations`, { text: '   ' })).status, 400);
    assert.equal((await api.request('POST', `/api/crawls/${crawl.id + 1000}/annotations`, { text: 'x' })).status, 404);
    // The capture is looked up within the crawl: one of another crawl is as unknown as a missing one.
    assert.equal((await api.request('POST', `/api/crawls/${crawl.id}/annotations`, { captureId: capture.id + 100_000, text: 'x' })).status, 404);
    await api.request('POST', '/api/users', { username: 'arch', password: 'archivist-pass', role: 'archivist' });
    const archivist = new ApiClient(cockpit.url);
    assert.equal((await archivist.login('arch', 'archivist-pass')).status, 200);
    assert.equal((await archivist.request('POST', `/api/crawls/${crawl.id}/annotations`, { text: 'x' })).status, 403);
    assert.equal((await archivist.request('GET', `/api/crawls/${crawl.id}/annotations`)).status, 200);
  });

  test('the reference crawl answers as JSON, or streams its progress as JSON lines when asked', async () => {
    const icd = await api.json<{ id: number }>('POST', '/api/icds', {
      name: 'Reference', seeds: [`${site.origin}/`], politeness: { minDelayMs: 0 },
      focus: { enabled: true, keywords: [{ term: 'harbour', weight: 1 }], referenceCrawl: { maxPages: 3, maxDepth: 2 } },
    });
    const whole = await api.json<{ pages: { url: string }[]; terms: { term: string }[] }>('POST', `/api/icds/${icd.id}/reference-crawl`);
    assert.equal(whole.pages.length, 3);

    const res = await api.request('POST', `/api/icds/${icd.id}/reference-crawl`, undefined, { accept: 'application/x-ndjson' });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/x-ndjson/);
    const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l) as { progress?: { fetched: number; documents: number; total: number }; result?: typeof whole });
    const progress = lines.filter((l) => l.progress).map((l) => l.progress!);
    assert.deepEqual(progress.map((p) => [p.fetched, p.documents, p.total]), [[1, 1, 3], [2, 2, 3], [3, 3, 3]]);
    assert.equal(lines.at(-1)!.result?.pages.length, 3, 'the result comes last');
    assert.deepEqual(lines.at(-1)!.result?.terms.map((t) => t.term), whole.terms.map((t) => t.term), 'the same answer either way');

    // Nothing to learn from: 422 as JSON, an error line when streamed.
    const empty = await api.json<{ id: number }>('POST', '/api/icds', { name: 'Nothing', seeds: [`${site.origin}/nowhere.html`], politeness: { minDelayMs: 0 }, focus: { enabled: true } });
    assert.equal((await api.request('POST', `/api/icds/${empty.id}/reference-crawl`)).status, 422);
    const streamed = await api.request('POST', `/api/icds/${empty.id}/reference-crawl`, undefined, { accept: 'application/x-ndjson' });
    const last = JSON.parse((await streamed.text()).trim().split('\n').at(-1)!) as { error?: string; status?: number };
    assert.equal(last.status, 422);
    assert.match(last.error ?? '', /no HTML page to learn from/);

    // A term typed in the review becomes the stems the crawl's pages produce (the reference crawl proposes stems).
    const typed = await api.json<{ terms: string[] }>('POST', `/api/icds/${icd.id}/topic-terms`, { text: 'Harbours of the lighthouses' });
    assert.deepEqual(typed.terms, ['harbour', 'lighthous']);
    assert.equal((await api.request('POST', `/api/icds/${icd.id}/topic-terms`, { text: 'of the' })).status, 422);
    assert.equal((await api.request('POST', `/api/icds/${icd.id}/topic-terms`, { text: '' })).status, 400);
    assert.equal((await api.request('POST', '/api/icds/999999/topic-terms', { text: 'harbour' })).status, 404);
  });

  test('export downloads serve only the files the export lists', async () => {
    const icd = await api.json<{ id: number }>('POST', '/api/icds', { name: 'Small', seeds: [`${site.origin}/`], scope: { maxPages: 3 }, politeness: { minDelayMs: 0, maxDelayMs: 50, delayFactor: 0 } });
    const crawl = await api.json<{ id: number }>('POST', '/api/crawls', { icdId: icd.id });
    assert.equal(await api.waitForCrawlStatus(crawl.id, ['finished']), 'finished');
    let exp = await api.json<{ id: number; status: string; files: { name: string }[] }>('POST', `/api/crawls/${crawl.id}/exports`);
    for (const end = Date.now() + 30_000; Date.now() < end && exp.status !== 'done' && exp.status !== 'failed'; await sleep(100)) {
      exp = await api.json('GET', `/api/exports/${exp.id}`);
    }
    assert.equal(exp.status, 'done');
    assert.ok(exp.files.length >= 2);
    assert.equal((await api.request('GET', `/api/exports/${exp.id}/files/${encodeURIComponent('../../tidemark.db')}`)).status, 404);
    assert.equal((await api.request('GET', `/api/exports/${exp.id}/files/not-listed.warc.gz`)).status, 404);
    assert.equal((await api.request('GET', `/api/exports/999999/files/index.cdxj`)).status, 404);
    const listed = await api.json<{ id: number }[]>('GET', `/api/crawls/${crawl.id}/exports`);
    assert.deepEqual(listed.map((e) => e.id), [exp.id]);
  });

  test('knowledge bases: list, get, validate, refuse invalid XML with line numbers, save valid XML', async () => {
    const list = await api.json<{ name: string }[]>('GET', '/api/knowledge-bases');
    assert.ok(list.some((kb) => kb.name === 'default'));
    const { xml } = await api.json<{ xml: string }>('GET', '/api/knowledge-bases/default');
    assert.match(xml, /<knowledge-base/);
    assert.deepEqual((await api.json<{ errors: unknown[] }>('POST', '/api/knowledge-bases/validate', { xml })).errors, []);
    const broken = xml.replace('<application ', '<application\n\n broken="');
    const validated = await api.json<{ errors: { line: number }[] }>('POST', '/api/knowledge-bases/validate', { xml: broken });
    assert.ok(validated.errors.length > 0 && validated.errors.every((e) => e.line > 0));
    const refused = await api.request('PUT', '/api/knowledge-bases/custom', { xml: broken });
    assert.equal(refused.status, 400);
    assert.ok(((await refused.json()) as { errors: { line: number }[] }).errors[0]!.line > 0);
    assert.equal((await api.request('GET', '/api/knowledge-bases/custom')).status, 404, 'nothing was saved');
    assert.equal((await api.request('PUT', '/api/knowledge-bases/custom', { xml })).status, 200);
    assert.equal((await api.json<{ xml: string }>('GET', '/api/knowledge-bases/custom')).xml, xml);
  });

  test('the AAH tester runs a knowledge base on pasted HTML', async () => {
    const kb = `<?xml version="1.0"?>
<knowledge-base version="1">
  <application id="toyforum" name="Toy forum" category="forum">
    <detect threshold="1"><xpath>//meta[@name='generator' and @content='ToyForum']</xpath></detect>
    <level type="terminal">
      <detect><xpath>//div[@class='post']</xpath></detect>
      <navigate id="next" select="//a[.='next']"/>
      <extract id="posts" type="post" select="//div[@class='post']">
        <field name="title" select=".//h2"/>
      </extract>
    </level>
  </application>
</knowledge-base>`;
    const html = `<html><head><meta name="generator" content="ToyForum"></head><body><div class="post"><h2>Hello</h2></div><a href="/next">next</a></body></html>`;
    const res = await api.request('POST', '/api/aah/test', { xml: kb, html, url: 'http://forum.test/t/1' });
    assert.equal(res.status, 200, await res.clone().text());
    const report = (await res.json()) as { errors: unknown[]; application: { id: string } | null; level: string | null; navigation: unknown[]; extraction: { rule: string; objects: { fields: Record<string, string> }[] }[] };
    assert.deepEqual(report.errors, [], JSON.stringify(report.errors));
    assert.equal(report.application?.id, 'toyforum');
    assert.equal(report.level, 'terminal');
    const navigation = report.navigation as { follow: boolean; links: string[] }[];
    assert.deepEqual(navigation.filter((n) => n.follow).flatMap((n) => n.links), ['http://forum.test/next']);
    assert.deepEqual(report.extraction.flatMap((e) => e.objects.map((o) => o.fields.title)), ['Hello']);
    assert.equal((await api.request('POST', '/api/aah/test', { xml: kb, url: 'http://forum.test/t/1' })).status, 400, 'no page given');
  });

  test('adapted rules: list, and approving an unknown rule is a 404', async () => {
    assert.ok(Array.isArray(await api.json('GET', '/api/adapted-rules')));
    assert.equal((await api.request('POST', '/api/adapted-rules/999999', { status: 'approved' })).status, 404);
    assert.equal((await api.request('POST', '/api/adapted-rules/999999', { status: 'maybe' })).status, 400);
  });
});
