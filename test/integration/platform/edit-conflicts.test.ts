/**
 * Two editors of one ICD or knowledge base, through the real server: a save built on a version
 * that is no longer stored is refused with 412 (If-Match), instead of silently replacing the
 * other editor's work; a save without If-Match is stored as before.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { signedInAdmin, startCockpit, type RunningCockpit } from '../../support/cockpit';
import { ApiClient } from '../../support/api-client';

type IcdBody = { name: string; updatedAt: string; definition: { name: string; description?: string; scope?: { maxPages?: number } } };
type Conflict = { error: string; updatedAt: string; etag: string };

describe('saves refused when built on a version no longer stored', { timeout: 240_000 }, () => {
  let cockpit: RunningCockpit;
  let a: ApiClient;
  let b: ApiClient;

  before(async () => {
    cockpit = await startCockpit();
    a = await signedInAdmin(cockpit);
    await a.json('POST', '/api/users', { username: 'bea', password: 'long-enough', role: 'archivist' });
    b = await ApiClient.signedIn(cockpit.url, 'bea', 'long-enough');
  });
  after(() => cockpit?.stop());

  /** The resource's body and the ETag that came with it. */
  const load = async <T>(client: ApiClient, path: string): Promise<{ body: T; etag: string }> => {
    const res = await client.request('GET', path);
    assert.equal(res.status, 200);
    return { body: (await res.json()) as T, etag: res.headers.get('etag') ?? '' };
  };
  const put = (client: ApiClient, path: string, body: unknown, etag?: string) => client.request('PUT', path, body, { headers: etag === undefined ? {} : { 'if-match': etag } });
  const newIcd = async (name: string) => (await a.json<{ id: number }>('POST', '/api/icds', { name, seeds: ['https://a.example.org/'] })).id;

  test('ICD: A and B open it, A saves, B’s save from the old version is a 412 and the stored definition stays A’s', async () => {
    const path = `/api/icds/${await newIcd('Harbour')}`;
    const opened = await load<IcdBody>(a, path);
    assert.equal(opened.etag, `"${opened.body.updatedAt}"`, 'the ETag names the updatedAt of the body');
    const alsoOpened = await load<IcdBody>(b, path);
    assert.equal(alsoOpened.etag, opened.etag);

    const saved = await put(a, path, { ...opened.body.definition, description: 'A’s description' }, opened.etag);
    assert.equal(saved.status, 200);
    const savedBody = (await saved.json()) as IcdBody;
    const newTag = saved.headers.get('etag');
    assert.equal(newTag, `"${savedBody.updatedAt}"`);
    assert.notEqual(newTag, opened.etag);

    const refused = await put(b, path, { ...alsoOpened.body.definition, scope: { maxPages: 7 } }, alsoOpened.etag);
    assert.equal(refused.status, 412);
    const conflict = (await refused.json()) as Conflict;
    assert.match(conflict.error, /^This crawl definition was changed at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC since you opened it, .*nothing was saved/);
    assert.equal(conflict.etag, newTag);
    assert.equal(conflict.updatedAt, savedBody.updatedAt);
    const stored = await load<IcdBody>(b, path);
    assert.equal(stored.body.definition.description, 'A’s description');
    assert.equal(stored.body.definition.scope?.maxPages, opened.body.definition.scope?.maxPages, 'B’s edit was not stored');
    assert.notEqual(opened.body.definition.scope?.maxPages, 7);
    assert.equal(stored.etag, newTag);

    // B, told, may overwrite knowingly: the version the 412 named.
    const overwritten = await put(b, path, { ...alsoOpened.body.definition, scope: { maxPages: 7 } }, conflict.etag);
    assert.equal(overwritten.status, 200);
    assert.equal((await load<IcdBody>(a, path)).body.definition.scope?.maxPages, 7);
  });

  test('knowledge base: the same, and an If-Match for a name not stored creates nothing', async () => {
    const path = '/api/knowledge-bases/default';
    const opened = await load<{ xml: string; updatedAt: string }>(a, path);
    assert.equal(opened.etag, `"${opened.body.updatedAt}"`);
    const alsoOpened = await load<{ xml: string }>(b, path);
    const saved = await put(a, path, { xml: `${opened.body.xml}\n<!-- A -->` }, opened.etag);
    assert.equal(saved.status, 200);
    const refused = await put(b, path, { xml: `${alsoOpened.body.xml}\n<!-- B -->` }, alsoOpened.etag);
    assert.equal(refused.status, 412);
    assert.match(((await refused.json()) as Conflict).error, /^This knowledge base was changed at .* since you opened it/);
    assert.match((await load<{ xml: string }>(a, path)).body.xml, /<!-- A -->$/);

    const stale = await put(a, '/api/knowledge-bases/nowhere', { xml: opened.body.xml }, opened.etag);
    assert.equal(stale.status, 412);
    assert.equal((await a.request('GET', '/api/knowledge-bases/nowhere')).status, 404, 'nothing was created');
  });

  test('a PUT without If-Match is stored as before, and moves the version on', async () => {
    const path = `/api/icds/${await newIcd('Scripted')}`;
    const opened = await load<IcdBody>(a, path);
    const res = await put(a, path, { ...opened.body.definition, description: 'from a script' });
    assert.equal(res.status, 200);
    assert.notEqual(res.headers.get('etag'), opened.etag);
    assert.equal((await load<IcdBody>(a, path)).body.definition.description, 'from a script');
    assert.equal((await put(a, path, opened.body.definition, opened.etag)).status, 412, 'the version before the script’s save is stale');

    const kb = await load<{ xml: string }>(a, '/api/knowledge-bases/default');
    const kbSaved = await put(b, '/api/knowledge-bases/default', { xml: `${kb.body.xml}\n<!-- script -->` });
    assert.equal(kbSaved.status, 200);
    assert.notEqual(kbSaved.headers.get('etag'), kb.etag);
    assert.equal((await put(b, '/api/knowledge-bases/scripted', { xml: kb.body.xml })).status, 200, 'a new name is created');
  });

  test('concurrent saves built on the same version: exactly one is stored, the others are 412', async () => {
    const path = `/api/icds/${await newIcd('Raced')}`;
    const opened = await load<IcdBody>(a, path);
    const clients = [a, b, a, b, a, b];
    const answers = await Promise.all(clients.map((c, i) => put(c, path, { ...opened.body.definition, description: `save ${i}` }, opened.etag)));
    const statuses = answers.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 1, `statuses ${statuses}`);
    assert.equal(statuses.filter((s) => s === 412).length, clients.length - 1, `statuses ${statuses}`);
    const winner = statuses.indexOf(200);
    assert.equal((await load<IcdBody>(a, path)).body.definition.description, `save ${winner}`);

    const kb = await load<{ xml: string }>(a, '/api/knowledge-bases/default');
    const kbAnswers = await Promise.all(clients.map((c, i) => put(c, '/api/knowledge-bases/default', { xml: `${kb.body.xml}\n<!-- save ${i} -->` }, kb.etag)));
    assert.equal(kbAnswers.filter((r) => r.status === 200).length, 1, `statuses ${kbAnswers.map((r) => r.status)}`);
    const kbWinner = kbAnswers.findIndex((r) => r.status === 200);
    assert.match((await load<{ xml: string }>(a, '/api/knowledge-bases/default')).body.xml, new RegExp(`<!-- save ${kbWinner} -->$`));
  });

  test('If-Match * saves over any stored version; a weak or malformed tag is refused', async () => {
    const path = `/api/icds/${await newIcd('Tagged')}`;
    const opened = await load<IcdBody>(a, path);
    assert.equal((await put(a, path, opened.body.definition, `W/${opened.etag}`)).status, 412);
    assert.equal((await put(a, path, opened.body.definition, '')).status, 412);
    assert.equal((await put(a, path, opened.body.definition, '*')).status, 200);
    assert.equal((await put(a, '/api/icds/999999', opened.body.definition, '*')).status, 404);
  });
});
