/**
 * A deleted crawl leaves nothing behind, in the database or in the data folder: a cockpit running
 * for weeks deletes hundreds of crawls, and whatever one leaves adds up (bench/soak.ts found a
 * spool folder per crawl). Real parts: the cockpit (server, worker, SQLite) and a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { signedInAdmin, startCockpit } from '../../support/cockpit';
import { startFixtureSite } from '../../support/fixture-site';
import { openSqlite } from '../../../worker/store/sqlite';

interface ExportView { id: number; status: string; error: string | null }

test('deleted crawls, one finished (visit–revisit, exported, annotated) and one paused, leave no row and no folder', { timeout: 180_000 }, async () => {
  const cockpit = await startCockpit({ TIDEMARK_DEMO_PORT: '0' });
  const site = await startFixtureSite({ pageCount: 40, delayMs: 20 });
  try {
    const api = await signedInAdmin(cockpit);
    const quick = { minDelayMs: 0, maxDelayMs: 50, delayFactor: 0, concurrency: 2 };
    const revisit = await api.json<{ id: number }>('POST', '/api/icds', { name: 'Revisit', seeds: [`${site.origin}/`], politeness: quick, scope: { maxPages: 8 }, coherence: { mode: 'visit-revisit' } });
    const slow = await api.json<{ id: number }>('POST', '/api/icds', { name: 'Slow', seeds: [`${site.origin}/`], politeness: { ...quick, minDelayMs: 100, maxDelayMs: 200, concurrency: 1 } });
    const finished = await api.json<{ id: number }>('POST', '/api/crawls', { icdId: revisit.id });
    const paused = await api.json<{ id: number }>('POST', '/api/crawls', { icdId: slow.id });

    assert.equal(await api.waitForCrawlStatus(finished.id, ['finished'], 90_000), 'finished');
    const exportIds: number[] = [];
    for (const format of ['warc', 'wacz']) {
      let exp = await api.json<ExportView>('POST', `/api/crawls/${finished.id}/exports`, { format });
      for (const end = Date.now() + 60_000; !['done', 'failed'].includes(exp.status) && Date.now() < end; await sleep(200)) exp = await api.json<ExportView>('GET', `/api/exports/${exp.id}`);
      assert.equal(exp.status, 'done', String(exp.error));
      exportIds.push(exp.id);
    }
    await api.json('POST', `/api/crawls/${finished.id}/annotations`, { text: 'Checked by the curator' });

    await api.json('POST', `/api/crawls/${paused.id}/control`, { action: 'pause' });
    assert.equal(await api.waitForCrawlStatus(paused.id, ['paused']), 'paused');

    const db = openSqlite(join(cockpit.dataDir, 'tidemark.db'));
    try {
      // Every table keyed by a crawl (adapted rules excepted: they belong to the knowledge base and outlive crawls, docs/knowledge-base.md).
      const keyed = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[])
        .map((table): { table: string; column?: string } => ({ table, column: (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name).find((c) => c === 'crawlId' || c === 'crawl_id') }))
        .filter((t): t is { table: string; column: string } => t.column !== undefined && t.table !== 'AdaptedRule');
      const rowsOf = (crawlId: number) => Object.fromEntries(keyed.map(({ table, column }) => [table, db.prepare(`SELECT COUNT(*) FROM "${table}" WHERE "${column}" = ?`).pluck().get(crawlId) as number]).filter(([, n]) => n));
      assert.ok(Object.keys(rowsOf(finished.id)).length >= 6, `the finished crawl has rows to delete: ${JSON.stringify(rowsOf(finished.id))}`);
      assert.ok(rowsOf(paused.id).frontier_url, 'the paused crawl has a frontier');

      for (const id of [finished.id, paused.id]) assert.equal((await api.request('DELETE', `/api/crawls/${id}`)).status, 204);

      // The rows go after the answer, in short transactions (CrawlDeletions); the crawls are gone from the cockpit at once.
      for (const id of [finished.id, paused.id]) assert.equal((await api.request('GET', `/api/crawls/${id}`)).status, 404);
      while (db.prepare('SELECT COUNT(*) FROM CrawlDeletion').pluck().get()) await sleep(100);
      for (const id of [finished.id, paused.id]) assert.deepEqual(rowsOf(id), {}, `rows of deleted crawl ${id}`);
      const left = [
        ...[finished.id, paused.id].flatMap((id) => [`warcs/${id}`, `spool/${id}`]),
        ...exportIds.map((id) => `exports/${id}`),
      ].filter((path) => existsSync(join(cockpit.dataDir, path)));
      assert.deepEqual(left, [], 'folders of deleted crawls');
    } finally {
      db.close();
    }
  } finally {
    await cockpit.stop();
    await site.close();
  }
});
