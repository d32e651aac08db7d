/**
 * A crawl's cookies in its database (CrawlCookieJar): written when the jar changed, periodically
 * and on close, read back by the next run, deleted with the crawl. The real SQLite database.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { openStoredCookieJar } from '../../../worker/store/cookie-jar-store';
import { icdSchema } from '../../../worker/icd/schema';
import { insertCrawl, migratedDatabase } from '../../support/crawl-rows';
import { withTempDir } from '../../support/temp-dir';

const icd = icdSchema.parse({ name: 'Cookies kept', seeds: ['http://example.org/'] });

test("a crawl's cookies are saved on close and come back with the next run; a save with nothing changed writes nothing", async () => {
  await withTempDir('tm-cookie-store-', async (dir) => {
    const db = migratedDatabase(dir);
    try {
      const crawlId = insertCrawl(db, icd);
      const first = openStoredCookieJar(db, crawlId);
      first.jar.remember('http://example.org/', ['consent=yes; Path=/', 'session=abc; Path=/; HttpOnly']);
      first.close();
      const stored = () => db.prepare('SELECT cookies FROM CrawlCookieJar WHERE crawlId = ?').pluck().get(crawlId) as string | undefined;
      assert.ok(stored()?.includes('consent'), 'saved on close');

      const second = openStoredCookieJar(db, crawlId);
      assert.equal(second.jar.cookieHeaderFor('http://example.org/page'), 'consent=yes; session=abc');
      // Read back is not a change: the row stays as it is (here a marker, to see it is not written).
      db.prepare("UPDATE CrawlCookieJar SET cookies = 'marker' WHERE crawlId = ?").run(crawlId);
      second.save();
      assert.equal(stored(), 'marker');
      second.jar.remember('http://example.org/', ['session=def; Path=/']);
      second.close();
      assert.match(stored()!, /"def"/);
      // Another crawl's jar is its own.
      const other = openStoredCookieJar(db, insertCrawl(db, icd));
      assert.equal(other.jar.size(), 0);
      other.close();
    } finally {
      db.close();
    }
  });
});

test('a changed jar is saved while the crawl runs (a crash loses at most the last interval), and goes with its crawl', async () => {
  await withTempDir('tm-cookie-store-', async (dir) => {
    const db = migratedDatabase(dir);
    try {
      const crawlId = insertCrawl(db, icd);
      const running = openStoredCookieJar(db, crawlId, undefined, 20);
      running.jar.remember('http://example.org/', ['consent=yes']);
      const count = () => db.prepare('SELECT COUNT(*) FROM CrawlCookieJar WHERE crawlId = ?').pluck().get(crawlId) as number;
      for (let i = 0; i < 100 && count() === 0; i++) await sleep(10);
      assert.equal(count(), 1, 'saved without a close');
      running.close();
      db.prepare('DELETE FROM Crawl WHERE id = ?').run(crawlId);
      assert.equal(count(), 0);
    } finally {
      db.close();
    }
  });
});
