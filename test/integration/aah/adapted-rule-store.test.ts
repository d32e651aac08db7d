/**
 * Adapted rules in the real SQLite database: the runner stores a rule when the engine adopts
 * it, follows the archivist's decision while the crawl runs, and a later runner restores the
 * rows (approved/pending used, rejected kept out, unreadable rows skipped).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openSqlite } from '../../../worker/store/sqlite';
import { applyMigrations } from '../../../worker/store/migrator';
import { AdaptedRuleStore } from '../../../worker/store/adapted-rule-store';
import { AahRunner } from '../../../worker/crawler/aah-runner';
import type { CrawlItem } from '../../../worker/crawler/stage';
import type { HttpExchange } from '../../../worker/capture';
import { renamedTopicPage } from '../../fixtures/aah/phpbb-renamed/topic-page';

const KB = readFileSync(resolve('knowledge-base/default.xml'), 'utf8');

// What is tested is the rules' storage, not the time budget: a loaded machine (CI ran it beside other
// files) took the first, cold page over the default 1 s, and it came back skipped, without a verdict.
const NO_BUDGET = { maxAnalysisMs: 60_000 };

// A fetched page as the pipeline hands it to the AAH (only status and headers of the exchange are read).
function topic(t: number): CrawlItem {
  const url = `http://quay.test/viewtopic.php?t=${t}`;
  const exchange = { url, status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } } as unknown as HttpExchange;
  return { url, host: 'quay.test', depth: 1, priority: 0.5, lease: null, exchange, html: Buffer.from(renamedTopicPage(t)), links: [] };
}

test('adapted rules: stored on adoption, the cockpit decision followed during the crawl, restored by the next runner', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-adapted-'));
  const db = openSqlite(join(dir, 'state.db'));
  try {
    applyMigrations(db, resolve('prisma/migrations'));
    let clock = 0;
    const runner = AahRunner.create(KB, 'keep', new AdaptedRuleStore(db, 7), { statusRefreshMs: 1000, now: () => clock, engine: NO_BUDGET });
    const counts = [1, 2, 3, 4, 5].map((t) => runner.analyse(topic(t)).verdict!.objects.length);
    assert.deepEqual(counts, [0, 0, 0, 12, 3], "the adopting page also brings the 3 earlier pages' posts");
    const rows = db.prepare('SELECT id, crawlId, status, provenance FROM AdaptedRule').all() as { id: number; crawlId: number; status: string; provenance: string }[];
    assert.deepEqual(rows.map((r) => [r.crawlId, r.status]), [[7, 'pending']]);
    const ruleId = (JSON.parse(rows[0]!.provenance) as { ruleId: string }).ruleId;

    db.prepare("UPDATE AdaptedRule SET status = 'rejected' WHERE id = ?").run(rows[0]!.id);
    clock += 500;
    assert.deepEqual(runner.analyse(topic(6)).verdict!.objects.map((o) => o.rule), [ruleId, ruleId, ruleId], 'statuses not re-read yet');
    clock += 1000;
    assert.deepEqual(runner.analyse(topic(8)).verdict!.objects.filter((o) => o.rule === ruleId), [], 'rejected in the cockpit: no longer used');

    // A hand-broken row is skipped, not a crash; the rejected rule is restored as rejected.
    db.prepare("INSERT INTO AdaptedRule (crawlId, application, originalRule, expression, provenance, status, createdAt) VALUES (8, 'phpbb', 'phpbb/terminal/post', '{broken', '{}', 'pending', '2024-01-01')").run();
    const next = AahRunner.create(KB, 'keep', new AdaptedRuleStore(db, 9), { engine: NO_BUDGET });
    assert.deepEqual(next.restored, { usable: 0, rejected: 1, unreadable: 1 });
    assert.deepEqual(next.analyse(topic(9)).verdict!.objects, [], 'the rejected rule is not used by the next crawl');

    db.prepare("UPDATE AdaptedRule SET status = 'approved' WHERE id = ?").run(rows[0]!.id);
    const approved = AahRunner.create(KB, 'keep', new AdaptedRuleStore(db, 10), { engine: NO_BUDGET });
    assert.deepEqual(approved.restored, { usable: 1, rejected: 0, unreadable: 1 });
    assert.deepEqual(approved.analyse(topic(10)).verdict!.objects.map((o) => o.rule), [ruleId, ruleId, ruleId], 'an approved rule extracts from the first page');
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
