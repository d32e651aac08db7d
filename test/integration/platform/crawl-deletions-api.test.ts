/**
 * GET /api/crawl-deletions and POST /api/crawl-deletions/:crawlId/retry: a deleted crawl one of whose
 * WARC files cannot be removed (chattr +i) is listed, by id and name, with the file, the system's
 * error and when it is tried again; "Try again now" tries it at once. Before, the failure was only in
 * the server's log, and the cockpit could not tell an archivist that the disk space was not freed.
 * Real parts: the cockpit (server, worker, SQLite), the file system, users of two roles.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiClient } from '../../support/api-client';
import { signedInAdmin, startCockpit } from '../../support/cockpit';
import { finishedLargeCrawl } from '../../support/large-warcs';
import { assertCanMakeImmutable, makeImmutable, makeRemovable } from '../../support/immutable-file';
import { crawlWarcDir } from '../../../worker/store/data-layout';
import { FILES_RETRY_FIRST_MS } from '../../../worker/process/crawl-deletion';

interface Deletion {
  crawlId: number;
  crawlName: string | null;
  requestedAt: string;
  stuck: { folder: string | null; path: string | null; failed: string; code: string; message: string }[];
  error: string;
  failedTries: number;
  nextTryAt: string | null;
}
interface Listing { items: Deletion[]; total: number; page: number; pageSize: number }

test('a deleted crawl whose WARC file cannot be removed is listed with the file, the error and its next try; tried again now it stays, then goes once the file can be removed', { timeout: 180_000 }, async () => {
  const cockpit = await startCockpit({ TIDEMARK_DEMO_PORT: '0' });
  let stuckFile: string | null = null;
  try {
    assertCanMakeImmutable(cockpit.dataDir);
    const admin = await signedInAdmin(cockpit);
    await admin.json('POST', '/api/users', { username: 'ada', password: 'archivist-password', role: 'archivist' });
    const archivist = await ApiClient.signedIn(cockpit.url, 'ada', 'archivist-password');
    const crawlId = await finishedLargeCrawl(cockpit.dataDir, 'Harbour, stuck', 2, 1);
    const folder = crawlWarcDir(cockpit.dataDir, crawlId);
    // Files are removed in their names' order, and a folder's removal stops at the first that cannot be: the last WARC file.
    const stuckName = readdirSync(folder).filter((name) => name.endsWith('.warc.gz')).sort().at(-1)!;
    stuckFile = join(folder, stuckName);
    assert.deepEqual(await admin.json<Listing>('GET', '/api/crawl-deletions'), { items: [], total: 0, page: 1, pageSize: 50 });

    makeImmutable(stuckFile);
    assert.equal((await admin.request('DELETE', `/api/crawls/${crawlId}`)).status, 204);
    const stuck = [{ folder: `warcs/${crawlId}`, path: `warcs/${crawlId}/${stuckName}`, failed: 'remove', code: 'EPERM', message: 'operation not permitted' }];
    const error = `warcs/${crawlId}/${stuckName} could not be removed (EPERM)`;
    // The DELETE's own try is on the list by the time it answers; the pass it woke tries again once the crawl's rows are deleted.
    const atOnce = await admin.json<Listing>('GET', '/api/crawl-deletions');
    assert.equal(atOnce.total, 1);
    let listed = atOnce.items[0]!;
    assert.deepEqual([listed.crawlId, listed.crawlName, listed.stuck, listed.error], [crawlId, 'Harbour, stuck', stuck, error]);
    while (listed.failedTries === 0) {
      await sleep(50);
      listed = (await admin.json<Listing>('GET', '/api/crawl-deletions')).items[0]!;
    }
    assert.equal(listed.failedTries, 1);
    assert.ok(Date.parse(listed.nextTryAt!) > Date.parse(listed.requestedAt) + FILES_RETRY_FIRST_MS / 2, `tried again at ${listed.nextTryAt}, a minute after the failure`);
    assert.deepEqual(readdirSync(folder), [stuckName], 'the other files are removed, the immutable one is not');

    // Any role that views crawls sees it; trying again is for those who may delete them, with the CSRF token.
    assert.deepEqual((await archivist.json<Listing>('GET', '/api/crawl-deletions')).items, [listed]);
    const refused = await archivist.request('POST', `/api/crawl-deletions/${crawlId}/retry`);
    assert.equal(refused.status, 403);
    assert.deepEqual(await refused.json(), { error: 'forbidden', permission: 'delete' });
    assert.equal((await admin.request('POST', `/api/crawl-deletions/${crawlId}/retry`, undefined, { csrf: false })).status, 403);
    assert.equal((await admin.request('POST', `/api/crawl-deletions/${crawlId + 1}/retry`)).status, 404, 'no deletion of that crawl');

    // Still immutable: tried, one more failure in a row, the wait doubled (2 minutes).
    const before = Date.now();
    const again = await admin.json<{ deletion: Deletion }>('POST', `/api/crawl-deletions/${crawlId}/retry`);
    const after = Date.now();
    assert.equal(again.deletion.failedTries, 2);
    assert.deepEqual(again.deletion.stuck, stuck);
    const nextTry = Date.parse(again.deletion.nextTryAt!);
    assert.ok(nextTry >= before + 2 * FILES_RETRY_FIRST_MS && nextTry <= after + 2 * FILES_RETRY_FIRST_MS, `tried again at ${again.deletion.nextTryAt}`);
    assert.deepEqual((await admin.json<Listing>('GET', '/api/crawl-deletions')).items, [again.deletion]);

    makeRemovable(stuckFile);
    assert.deepEqual(await admin.json('POST', `/api/crawl-deletions/${crawlId}/retry`), { deletion: null });
    assert.equal(existsSync(folder), false, 'the folder is removed');
    assert.deepEqual(await admin.json<Listing>('GET', '/api/crawl-deletions'), { items: [], total: 0, page: 1, pageSize: 50 });
    assert.equal((await admin.request('POST', `/api/crawl-deletions/${crawlId}/retry`)).status, 404, 'nothing left to try');
    assert.match(cockpit.output(), new RegExp(`crawl ${crawlId}'s rows are deleted, but not all its files could be removed from .+ \\(2 times in a row; tried again at [-:.T0-9]+Z\\): ${error.replace(/[.()]/g, '\\$&')}`));
  } finally {
    if (stuckFile && existsSync(stuckFile)) makeRemovable(stuckFile);
    await cockpit.stop();
  }
});
