import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signedInAdmin, startCockpit } from '../../support/cockpit';
import type { ApiClient } from '../../support/api-client';
import { startFixtureSite } from '../../support/fixture-site';
import { openSqlite, sqlDate } from '../../../worker/store/sqlite';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts a crawl of `origin` and waits until `pages` of its pages are stored, so a kill hits it mid-crawl. */
async function crawlUnderWay(api: ApiClient, dataDir: string, origin: string, pages: number) {
  const icd = await api.json<{ id: number }>('POST', '/api/icds', {
    name: 'Crash test',
    seeds: [`${origin}/`],
    politeness: { minDelayMs: 20, maxDelayMs: 100, delayFactor: 0, concurrency: 2 },
  });
  const crawl = await api.json<{ id: number }>('POST', '/api/crawls', { icdId: icd.id });
  const db = openSqlite(join(dataDir, 'tidemark.db'));
  const captured = () => db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ?').pluck().get(crawl.id) as number;
  for (const end = Date.now() + 60_000; captured() < pages && Date.now() < end; ) await sleep(100);
  assert.ok(captured() >= pages, 'crawl made progress before the kill');
  return { crawl, db, captured };
}

test('SIGKILL of the worker mid-crawl: the server restarts it and every page is captured exactly once', { timeout: 240_000 }, async () => {
  const site = await startFixtureSite({ pageCount: 60, delayMs: 40 });
  const cockpit = await startCockpit();
  try {
    const api = await signedInAdmin(cockpit);
    const { crawl, db, captured } = await crawlUnderWay(api, cockpit.dataDir, site.origin, 15);
    assert.ok(captured() < site.pages.length, 'the kill happens mid-crawl');

    const [firstPid] = cockpit.workerPids();
    assert.ok(firstPid, 'worker pid known');
    process.kill(firstPid!, 'SIGKILL');
    await cockpit.waitForOutput(/crawl worker exited[\s\S]*crawl worker \d+ ready/, 30_000);
    assert.equal(cockpit.workerPids().length, 2, 'a new worker was started');

    const status = () => (db.prepare('SELECT status FROM Crawl WHERE id = ?').get(crawl.id) as { status: string }).status;
    const end = Date.now() + 120_000;
    while (status() !== 'finished' && Date.now() < end) await sleep(200);
    assert.equal(status(), 'finished');

    const rows = db.prepare('SELECT url, COUNT(*) AS n FROM Capture WHERE crawlId = ? GROUP BY url').all(crawl.id) as { url: string; n: number }[];
    const counts = new Map(rows.map((r) => [r.url, r.n]));
    for (const page of site.pages) assert.equal(counts.get(page), 1, `${page} captured exactly once`);
    const runs = db.prepare('SELECT reason FROM CrawlRun WHERE crawlId = ? ORDER BY id').all(crawl.id) as { reason: string }[];
    assert.deepEqual(runs.map((r) => r.reason), ['start', 'restart']);

    // An export the worker was running when it died: left 'running', half written. The next worker
    // starts it again from the beginning.
    const exportId = Number(db.prepare("INSERT INTO Export (crawlId, status, progress, format, createdAt) VALUES (?, 'running', 0.4, 'wacz', ?)").run(crawl.id, sqlDate(new Date())).lastInsertRowid);
    const leftovers = join(cockpit.dataDir, 'exports', String(exportId));
    mkdirSync(leftovers, { recursive: true });
    writeFileSync(join(leftovers, `tidemark-${crawl.id}-${exportId}.wacz`), 'half a package');
    process.kill(cockpit.workerPids().at(-1)!, 'SIGKILL');
    await cockpit.waitForOutput(/crawl worker exited[\s\S]*crawl worker \d+ ready[\s\S]*crawl worker exited[\s\S]*crawl worker \d+ ready/, 30_000);
    const exportRow = () => db.prepare('SELECT status, files, error FROM Export WHERE id = ?').get(exportId) as { status: string; files: string; error: string | null };
    for (const until = Date.now() + 60_000; exportRow().status !== 'done' && exportRow().status !== 'failed' && Date.now() < until; ) await sleep(200);
    assert.equal(exportRow().status, 'done', String(exportRow().error));
    const [packaged] = JSON.parse(exportRow().files) as { name: string; bytes: number }[];
    assert.deepEqual(readdirSync(leftovers), [packaged!.name], 'the package alone');
    assert.equal(statSync(join(leftovers, packaged!.name)).size, packaged!.bytes, 'written anew, not the half-written file');
    assert.ok(packaged!.bytes > 1000);
    db.close();
  } finally {
    await cockpit.stop();
    await site.close();
  }
});

test('a crawl stopped while its worker is down (SIGKILL mid-crawl) has its WARC file closed, and exports whole', { timeout: 180_000 }, async () => {
  const cockpit = await startCockpit({ TIDEMARK_DEMO_PORT: '0' });
  const site = await startFixtureSite({ pageCount: 200, delayMs: 40 });
  try {
    const api = await signedInAdmin(cockpit);
    const { crawl, db } = await crawlUnderWay(api, cockpit.dataDir, site.origin, 10);

    // The archivist stops the crawl in the second the worker is down (it restarts after 1 s).
    process.kill(cockpit.workerPids().at(-1)!, 'SIGKILL');
    await api.json('POST', `/api/crawls/${crawl.id}/control`, { action: 'stop' });
    assert.equal(await api.waitForCrawlStatus(crawl.id, ['stopped', 'failed'], 60_000), 'stopped');
    assert.equal(cockpit.workerPids().length, 2, 'stopped by the restarted worker');
    const warcDir = join(cockpit.dataDir, 'warcs', String(crawl.id));
    assert.deepEqual(readdirSync(warcDir).filter((n) => n.endsWith('.open')), [], 'no file left open');

    const created = await api.json<{ id: number }>('POST', `/api/crawls/${crawl.id}/exports`, { format: 'warc' });
    let exp = { status: 'pending', error: null as string | null, files: [] as { name: string }[] };
    for (const end = Date.now() + 60_000; !['done', 'failed'].includes(exp.status) && Date.now() < end; await sleep(200)) exp = await api.json('GET', `/api/exports/${created.id}`);
    assert.equal(exp.status, 'done', String(exp.error));
    const stored = db.prepare('SELECT DISTINCT warcFile FROM Capture WHERE crawlId = ?').pluck().all(crawl.id) as string[];
    const listed = exp.files.map((f) => f.name);
    for (const file of stored) assert.ok(listed.includes(file), `the export lists ${file}, which holds captures`);
    assert.ok(listed.includes('index.cdxj'));
    db.close();
  } finally {
    await cockpit.stop();
    await site.close();
  }
});
