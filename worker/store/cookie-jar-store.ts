import type Database from 'better-sqlite3';
import { createCookieJar, DEFAULT_COOKIE_BOUNDS, type CookieBounds, type CrawlCookieJar } from '../fetch/cookie-jar';
import { sqlDate } from './sqlite';

/** How often a changed jar is written: a crash (SIGKILL, power) loses at most this much of it. */
export const COOKIE_SAVE_INTERVAL_MS = 5_000;

/** A crawl's cookie jar kept in its database (CrawlCookieJar), so that a resumed crawl keeps its cookies. */
export interface StoredCookieJar {
  jar: CrawlCookieJar;
  /** Writes the jar if it changed since it was last written (or read). */
  save(): void;
  /** Saves, and stops the periodic saving. */
  close(): void;
}

/**
 * The crawl's jar as it was last saved (empty for a new crawl), saved every COOKIE_SAVE_INTERVAL_MS
 * while it changes and on close. Heritrix keeps its cookies in its checkpoints, for the same reason:
 * a crawl resumed behind a consent or session wall would otherwise meet the wall again, and archive
 * it instead of the pages. A write the database refuses (a full disk) is said once and left: the
 * crawl itself pauses on such a disk, and the next save tries again.
 */
export function openStoredCookieJar(db: Database.Database, crawlId: number, bounds: CookieBounds = DEFAULT_COOKIE_BOUNDS, intervalMs = COOKIE_SAVE_INTERVAL_MS): StoredCookieJar {
  const saved = db.prepare('SELECT cookies FROM CrawlCookieJar WHERE crawlId = ?').pluck().get(crawlId) as string | undefined;
  const jar = createCookieJar(bounds, saved);
  const write = db.prepare(
    'INSERT INTO CrawlCookieJar (crawlId, cookies, savedAt) VALUES (?, ?, ?) ON CONFLICT (crawlId) DO UPDATE SET cookies = excluded.cookies, savedAt = excluded.savedAt',
  );
  let savedAt = jar.changes();
  let failed = false;
  const save = () => {
    const changes = jar.changes();
    if (changes === savedAt) return;
    try {
      write.run(crawlId, jar.snapshot(), sqlDate(new Date()));
      savedAt = changes;
      failed = false;
    } catch (err) {
      if (!failed) console.error(`tidemark: the crawl's cookies could not be saved (${(err as Error).message}); a resumed crawl may lack the latest`);
      failed = true;
    }
  };
  const timer = setInterval(save, intervalMs);
  timer.unref();
  return {
    jar,
    save,
    close() {
      clearInterval(timer);
      save();
    },
  };
}
