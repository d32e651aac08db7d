/**
 * frontier_host (a host's IP and Crawl-delay) and frontier_key (a key's last request) kept every
 * host any crawl ever visited, deleted crawls' too. Now, once a crawl's end or deletion is
 * committed, the worker or the API prunes the rows no crawl that may still run needs, in short
 * write transactions. Real parts: a migrated SQLite database, the frontier writing the rows as a
 * crawl does, and the worker's and API's own ends of a crawl.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SqliteFrontier, type Candidate } from '../../../worker/frontier';
import { icdSchema } from '../../../worker/icd/schema';
import { PolitenessRegistry, SimulatedClock } from '../../../worker/politeness';
import { endCrawl } from '../../../worker/process/crawl-end';
import { deleteCrawlRow } from '../../../worker/process/crawl-requests';
import { prunePolitenessRows } from '../../../worker/process/prune-politeness';
import { insertCrawl, migratedDatabase } from '../../support/crawl-rows';
import { crawlConfig } from '../frontier/frontier-fixture';
import { withTempDir } from '../../support/temp-dir';

const HOUR_MS = 3_600_000;
const politeness = { enabled: true, minDelayMs: 10, maxDelayMs: 10, delayFactor: 0 };
const page = (url: string): Candidate => ({ url, host: new URL(url).host, depth: 0, priority: 0.5, kind: 'seed' });

test('ending or deleting a crawl prunes the politeness rows no crawl that may still run needs', async () => {
  await withTempDir('tm-prune-politeness-', async (dir) => {
    const db = migratedDatabase(dir);
    const now = Date.now();
    const clock = new SimulatedClock(now);
    const icd = icdSchema.parse({ name: 'Prune', seeds: ['http://only1.test/'] });
    const [finishing, waiting, deleted] = [insertCrawl(db, icd), insertCrawl(db, icd), insertCrawl(db, icd)];
    const frontier = new SqliteFrontier(db, { clock, registry: new PolitenessRegistry() });
    for (const id of [finishing, waiting, deleted]) frontier.openCrawl(id, crawlConfig({ politeness }));
    frontier.add(finishing, [page('http://only1.test/'), page('http://shared.test/a')]);
    frontier.add(waiting, [page('http://shared.test/b')]);
    frontier.add(deleted, [page('http://only3.test/x'), page('http://only3.test/y')]);
    frontier.setHostKey('only1.test', '10.0.0.1');
    frontier.setHostKey('shared.test', '10.0.0.2');
    frontier.setHostKey('only3.test', '10.0.0.3');
    frontier.setRobotsDelay('only1.test', 2_000);
    // Requests as the crawls made them: two hours ago for the finishing crawl, a minute ago for the one deleted later.
    const fetch = (crawlId: number, host: string, startedAt: number) => {
      const [lease] = frontier.takeBatch(crawlId, host, 1);
      assert.ok(lease, `a URL of ${host} leased`);
      assert.ok(frontier.complete(lease, { status: 200, startedAt, durationMs: 20 }));
    };
    fetch(finishing, 'only1.test', now - 2 * HOUR_MS);
    fetch(finishing, 'shared.test', now - 2 * HOUR_MS);
    fetch(deleted, 'only3.test', now - 60_000);
    frontier.close();
    db.prepare("UPDATE Crawl SET status = 'paused', desired = 'pause' WHERE id IN (?, ?)").run(waiting, deleted);
    db.prepare("UPDATE Crawl SET status = 'running' WHERE id = ?").run(finishing);

    const hosts = () => db.prepare('SELECT host FROM frontier_host ORDER BY host').pluck().all();
    const keys = () => db.prepare('SELECT key FROM frontier_key ORDER BY key').pluck().all();
    assert.deepEqual(hosts(), ['only1.test', 'only3.test', 'shared.test']);
    assert.deepEqual(keys(), ['10.0.0.1', '10.0.0.2', '10.0.0.3']);

    // The first crawl finishes: its own host goes; shared.test is still waited for by the paused crawl, only3.test too.
    endCrawl(db, finishing, { status: 'finished' }, new Date(now));
    await prunePolitenessRows(db, now);
    assert.deepEqual(hosts(), ['only3.test', 'shared.test']);
    assert.deepEqual(keys(), ['10.0.0.2', '10.0.0.3']);

    // The paused crawl is stopped: nothing waits for shared.test any more, and its key's last request is two hours old.
    endCrawl(db, waiting, { status: 'stopped' }, new Date(now));
    await prunePolitenessRows(db, now);
    assert.deepEqual(hosts(), ['only3.test']);
    assert.deepEqual(keys(), ['10.0.0.3']);

    // The third crawl is deleted: its host goes; its key's request a minute ago may still owe a wait after a restart.
    assert.deepEqual(deleteCrawlRow(db, deleted), { done: [] });
    await prunePolitenessRows(db, now);
    assert.deepEqual(hosts(), []);
    assert.deepEqual(keys(), ['10.0.0.3']);
    // An hour later (the longest delay an ICD may set) it is owed nothing.
    assert.deepEqual(await prunePolitenessRows(db, now + HOUR_MS), { hosts: 0, keys: 1, batches: 1 });
    assert.deepEqual(keys(), []);
    db.close();
  });
});

test('the prune deletes in short write transactions, one batch of rows at a time, letting other writes in between', async () => {
  await withTempDir('tm-prune-politeness-', async (dir) => {
    const db = migratedDatabase(dir);
    const now = Date.now();
    const icd = icdSchema.parse({ name: 'Batches', seeds: ['http://kept.test/'] });
    const [running, ended] = [insertCrawl(db, icd), insertCrawl(db, icd)];
    const frontier = new SqliteFrontier(db, { clock: new SimulatedClock(now), registry: new PolitenessRegistry() });
    frontier.openCrawl(running, crawlConfig({ politeness }));
    frontier.add(running, [page('http://kept.test/')]);
    frontier.setHostKey('kept.test', '10.9.0.0');
    frontier.close();
    db.prepare("UPDATE Crawl SET status = 'running' WHERE id = ?").run(running);
    db.prepare("UPDATE Crawl SET status = 'finished' WHERE id = ?").run(ended);
    // 2,500 hosts and keys of the crawl that ended, its requests two hours old.
    const addHost = db.prepare('INSERT INTO frontier_host (host, ip_key) VALUES (?, ?)');
    const addKey = db.prepare('INSERT INTO frontier_key (key, last_start_at, last_duration_ms) VALUES (?, ?, 0)');
    db.transaction(() => {
      for (let i = 0; i < 2500; i++) {
        addHost.run(`old${i}.test`, `10.8.${i >> 8}.${i & 255}`);
        addKey.run(`10.8.${i >> 8}.${i & 255}`, now - 2 * HOUR_MS);
      }
    })();
    const count = (table: string) => db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;

    const pruning = prunePolitenessRows(db, now, 1000);
    assert.equal(db.inTransaction, false, 'no transaction stays open while the prune yields');
    assert.ok(count('frontier_host') < 2501 && count('frontier_host') > 1, 'one batch is done before the prune lets others in');
    db.prepare("UPDATE Crawl SET name = 'written between two batches' WHERE id = ?").run(running);
    // 2,501 hosts looked at 1,000 at a time, then 2,500 keys: three batches each.
    assert.deepEqual(await pruning, { hosts: 2500, keys: 2500, batches: 6 });
    assert.deepEqual(db.prepare('SELECT host FROM frontier_host').pluck().all(), ['kept.test'], 'the running crawl\'s host stays');
    assert.equal(count('frontier_key'), 0);
    db.close();
  });
});

test('a database whose crawls never ran has no frontier tables to prune', async () => {
  await withTempDir('tm-prune-politeness-', async (dir) => {
    const db = migratedDatabase(dir);
    const id = insertCrawl(db, icdSchema.parse({ name: 'Never ran', seeds: ['http://never.test/'] }));
    db.prepare("UPDATE Crawl SET status = 'paused', desired = 'pause' WHERE id = ?").run(id);
    assert.deepEqual(deleteCrawlRow(db, id), { done: [] });
    db.close();
  });
});
