/**
 * The hosts report reads the crawl log once: a second query counting the hosts read all of it again,
 * 1 s of the report's 3 s for a crawl log of 1,000,000 entries. Real SQLite, a migrated database.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { icdSchema } from '../../../worker/icd/schema';
import { readHostsReport } from '../../../worker/crawler/hosts-report';
import { insertCrawl, migratedDatabase } from '../../support/crawl-rows';
import { withTempDir } from '../../support/temp-dir';

test('the hosts report reads the crawl log in one statement, and counts the hosts past the ones it lists', async () => {
  await withTempDir('tm-hosts-report-', async (dir) => {
    const db = migratedDatabase(dir);
    const crawlId = insertCrawl(db, icdSchema.parse({ name: 'Hosts', seeds: ['http://a.test/'] }));
    const log = db.prepare("INSERT INTO CrawlLogEntry (crawlId, url, status, outcome, size, at) VALUES (?, ?, ?, ?, ?, datetime('now'))");
    for (let i = 0; i < 5; i++) log.run(crawlId, `http://a.test/${i}`, 200, 'ok', 100);
    for (let i = 0; i < 3; i++) log.run(crawlId, `http://b.test:8080/${i}`, i ? 200 : null, i ? 'ok' : 'connect-refused', 10);
    log.run(crawlId, 'http://c.test/private', null, 'robots', 0);
    // A recrawl round's own entry is no fetch of its host.
    log.run(crawlId, 'http://d.test/', null, 'recrawl-round-failed', 0);
    db.close();

    const statements: string[] = [];
    const reader = new Database(join(dir, 'state.db'), { readonly: true, verbose: (sql) => statements.push(String(sql)) });
    try {
      const report = readHostsReport(reader, crawlId, 2);
      assert.deepEqual(report.hosts, [
        { host: 'a.test', fetches: 5, ok: 5, failed: 0, excluded: 0, notRequested: 0, bytes: 500 },
        { host: 'b.test:8080', fetches: 3, ok: 2, failed: 1, excluded: 0, notRequested: 0, bytes: 30 },
      ]);
      assert.equal(report.hostCount, 3, 'c.test beside the two listed; d.test had no fetch');
      assert.equal(statements.filter((sql) => /CrawlLogEntry/.test(sql)).length, 1, statements.join('\n'));
    } finally {
      reader.close();
    }
  });
});
