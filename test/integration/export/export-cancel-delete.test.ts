/**
 * Deleting an export a moment after cancelling it. The cancel marks the row cancelled at once, while
 * the worker stops within about CANCEL_POLL_MS and removes what it wrote: a delete in between races
 * that clean-up (the folder being written to as it is walked). Cancel then delete at once, a few
 * times, at different points of the work: each delete answers 204 or a clear 409, and once the
 * worker has stopped no file, folder or row of the export is left.
 *
 * Real parts: the route handlers over a migrated SQLite database, the worker's CrawlManager running
 * the exports, a crawl of two WARC files of 40 MB written by the crawl's own writer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { callRoute, routeDatabase, signedInAs, startWorker, type RouteHandler } from '../../support/route-database';
import { until } from '../../support/engine-run';
import { crawlWarcId } from '../../../worker/warc';
import { crawlWarcDir, exportDir } from '../../../worker/store/data-layout';
import { icdSchema } from '../../../worker/icd/schema';
import { insertCrawl } from '../../support/crawl-rows';
import { writeLargeWarcs } from '../../support/large-warcs';

test('an export cancelled and deleted at once, again and again: 204 or a clear 409, never a file or row left', { timeout: 300_000 }, async () => {
  const { POST: requestExport } = await import('../../../app/api/crawls/[id]/exports/route');
  const { DELETE: del } = await import('../../../app/api/exports/[id]/route');
  const { POST: cancel } = await import('../../../app/api/exports/[id]/cancel/route');
  const s = await routeDatabase('tidemark-export-cancel-delete-');
  const manager = await signedInAs(s, 'harbour-master', 'manager');
  const call = <P>(handler: RouteHandler<P>, method: string, path: string, params: P, body?: unknown) => callRoute(manager, handler, method, path, body, params);
  const crawlId = insertCrawl(s.db, icdSchema.parse({ name: 'Harbour', seeds: ['http://127.0.0.1:9/'] }));
  s.db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop' WHERE id = ?").run(crawlId);
  await writeLargeWarcs(crawlWarcDir(s.env.dataDir, crawlId), crawlWarcId(crawlId), 80, 40);
  const worker = await startWorker(s);
  try {
    const progressOf = (id: number) => s.db.prepare('SELECT progress FROM Export WHERE id = ?').pluck().get(id) as number | undefined;
    const rowOf = (id: number) => s.db.prepare('SELECT status, error FROM Export WHERE id = ?').get(id) as { status: string; error: string | null } | undefined;

    // Where each is cancelled: before it starts, as it starts (its files being linked), while it
    // verifies, while a WACZ is being packaged.
    const rounds: { format: 'warc' | 'wacz'; at: number | null }[] = [
      { format: 'warc', at: null },
      { format: 'warc', at: 0 },
      { format: 'warc', at: 0.05 },
      { format: 'wacz', at: 0.2 },
      { format: 'wacz', at: 0.55 },
      { format: 'wacz', at: 0.7 },
      { format: 'warc', at: 0.5 },
      // The narrowest: the worker has just begun (its folder made, its files being linked).
      ...Array.from({ length: 4 }, (_, k) => ({ format: (k % 2 ? 'wacz' : 'warc') as 'warc' | 'wacz', at: k < 2 ? 0 : 0.01 })),
    ];
    const answers: string[] = [];
    for (const [i, round] of rounds.entries()) {
      const made = await call(requestExport, 'POST', `/api/crawls/${crawlId}/exports`, { id: String(crawlId) }, { format: round.format });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const id = made.body.id as number;
      const params = { id: String(id) };
      if (round.at !== null) {
        const at = round.at;
        await until(`export ${id} under way (${at})`, () => rowOf(id)?.status === 'running' && (progressOf(id) ?? 0) >= at, 60_000);
      }
      const cancelled = await call(cancel, 'POST', `/api/exports/${id}/cancel`, params);
      assert.equal(cancelled.status, 200, `round ${i}: ${JSON.stringify(cancelled.body)}`);
      const deleted = await call(del, 'DELETE', `/api/exports/${id}`, params);
      answers.push(`${round.format}@${round.at}: ${deleted.status}`);
      assert.ok(deleted.status === 204 || deleted.status === 409, `round ${i} (${round.format} at ${round.at}): delete answered ${deleted.status} ${JSON.stringify(deleted.body)}`);
      if (deleted.status === 409) {
        const message = (deleted.body.error as { message?: string } | string | undefined);
        assert.match(typeof message === 'string' ? message : message?.message ?? '', /cancel/i, 'the 409 says why');
        // Asked again once the worker has stopped, it is deleted.
        let again = deleted;
        const deadline = Date.now() + 10_000;
        while (again.status === 409 && Date.now() < deadline) {
          await sleep(100);
          again = await call(del, 'DELETE', `/api/exports/${id}`, params);
        }
        assert.equal(again.status, 204, `round ${i}: deleted once the worker stopped: ${JSON.stringify(again.body)}`);
      }
      // The worker stops within about a second; once it has let the export go, nothing of it is left.
      await until(`round ${i}: the worker has let export ${id} go`, () => !worker.exporting(), 10_000);
      assert.equal(rowOf(id), undefined, `round ${i}: no row left (${JSON.stringify(rowOf(id))})`);
      const dir = exportDir(s.env.dataDir, id);
      assert.ok(!existsSync(dir), `round ${i}: no folder left (${existsSync(dir) ? readdirSync(dir).join(', ') : ''})`);
    }
    assert.deepEqual(readdirSync(join(s.env.dataDir, 'exports')), [], `nothing at all left in the exports folder (${answers.join('; ')})`);
  } finally {
    await worker.stop();
  }
});
