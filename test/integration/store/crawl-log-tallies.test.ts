/**
 * The hosts report and the crawl log's counts read the crawl's log tallies (CrawlHostTally,
 * CrawlLogTally), which a trigger keeps as entries are logged: reading the log itself took ~2.3 s for
 * the hosts report and ~0.15 s a poll for the log's counts at 1,000,000 entries, the server's thread
 * held meanwhile. Real SQLite, a migrated database.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { icdSchema } from '../../../worker/icd/schema';
import { readHostsReport } from '../../../worker/crawler/hosts-report';
import { insertCrawl, migratedDatabase } from '../../support/crawl-rows';
import { withTempDir } from '../../support/temp-dir';

test('the hosts report is read from the tallies the trigger keeps, not the crawl log, and counts the hosts past the ones it lists', async () => {
  await withTempDir('tm-hosts-report-', async (dir) => {
    const db = migratedDatabase(dir);
    const crawlId = insertCrawl(db, icdSchema.parse({ name: 'Hosts', seeds: ['http://a.test/'] }));
    const other = insertCrawl(db, icdSchema.parse({ name: 'Other', seeds: ['http://a.test/'] }));
    const log = db.prepare("INSERT INTO CrawlLogEntry (crawlId, url, status, outcome, size, at, notRequested) VALUES (?, ?, ?, ?, ?, datetime('now'), ?)");
    for (let i = 0; i < 5; i++) log.run(crawlId, `http://a.test/${i}`, 200, 'ok', 100, 0);
    for (let i = 0; i < 3; i++) log.run(crawlId, `http://b.test:8080/${i}`, i ? 200 : null, i ? 'ok' : 'connect-refused', 10, 0);
    log.run(crawlId, 'http://c.test/private', null, 'robots', 0, 0);
    log.run(crawlId, 'http://c.test/silent', null, 'robots-unavailable', 0, 1);
    log.run(crawlId, 'http://c.test/cut', 206, 'truncated-length', 7, 0);
    // A recrawl round's own entry is no fetch of its host.
    log.run(crawlId, 'http://d.test/', null, 'recrawl-round-failed', 0, 0);
    // Another crawl's entries count for it only.
    log.run(other, 'http://a.test/0', 200, 'ok', 100, 0);
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
      assert.deepEqual(readHostsReport(reader, crawlId, 5).hosts[2], { host: 'c.test', fetches: 1, ok: 1, failed: 0, excluded: 2, notRequested: 1, bytes: 7 },
        'a cut capture is an ok fetch; robots exclusions and a URL not requested are none');
      assert.deepEqual(readHostsReport(reader, other, 5).hosts, [{ host: 'a.test', fetches: 1, ok: 1, failed: 0, excluded: 0, notRequested: 0, bytes: 100 }]);
      assert.deepEqual(statements.filter((sql) => /CrawlLogEntry/.test(sql)), [], 'the log itself is not read');
    } finally {
      reader.close();
    }
  });
});

test('the log tallies count every entry as a count of the log does, and go with their crawl', async () => {
  await withTempDir('tm-log-tallies-', async (dir) => {
    const db = migratedDatabase(dir);
    try {
      const crawlId = insertCrawl(db, icdSchema.parse({ name: 'Tallies', seeds: ['http://a.test/'] }));
      const log = db.prepare("INSERT INTO CrawlLogEntry (crawlId, url, status, outcome, size, at) VALUES (?, ?, ?, ?, ?, datetime('now'))");
      const outcomes = ['ok', 'ok', 'http-error', 'timeout', 'robots'];
      db.transaction(() => {
        for (let i = 0; i < 2_000; i++) log.run(crawlId, `http://h${i % 7}.test/${i}`, i % 5 === 3 ? null : 200 + (i % 3), outcomes[i % 5], i);
      })();
      // The one update entries get (a retried fetch's message and retries) leaves the counts as they are.
      db.prepare("UPDATE CrawlLogEntry SET message = 'retried', retries = 2 WHERE id % 10 = 0").run();
      const recount = db.prepare('SELECT outcome, IFNULL(status, 0) AS status, COUNT(*) AS entries FROM CrawlLogEntry WHERE crawlId = ? GROUP BY 1, 2 ORDER BY 1, 2').all(crawlId);
      assert.deepEqual(db.prepare('SELECT outcome, status, entries FROM CrawlLogTally WHERE crawlId = ? ORDER BY 1, 2').all(crawlId), recount);
      const bytes = db.prepare('SELECT SUM(bytes) FROM CrawlHostTally WHERE crawlId = ?').pluck().get(crawlId);
      assert.equal(bytes, (1_999 * 2_000) / 2, 'every entry\'s size');
      db.prepare('DELETE FROM Crawl WHERE id = ?').run(crawlId);
      assert.equal(db.prepare('SELECT (SELECT COUNT(*) FROM CrawlLogTally) + (SELECT COUNT(*) FROM CrawlHostTally)').pluck().get(), 0, 'deleted with the crawl');
    } finally {
      db.close();
    }
  });
});
