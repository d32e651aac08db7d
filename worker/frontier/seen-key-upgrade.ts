import type Database from 'better-sqlite3';
import { runInTransaction, tableExists } from '../store/sqlite';
import { mayHoldSessionId } from '../url/session-id';
import { urlHash } from './url-hash';

/** Its presence says the database's seen-set rows are keyed without session ids (seenKey). */
const MARKER = 'frontier_seen_key_without_sessions';

/**
 * Once per database: rows written before the seen-set left session ids out of its key hold the hash
 * of their whole URL. Those whose URL may hold a session id take the hash of their seenKey, so a
 * resumed crawl finds them under it (a variant of the URL is then a duplicate, and a look-up by the
 * URL finds its row); where two rows of one page would take the same key, the first to take it
 * keeps it, the other its old hash (both were fetched already or are queued: nothing is lost).
 * Rows of URLs without session ids keep the hash they have: their key is the URL itself.
 */
export function keySeenRowsWithoutSessionIds(db: Database.Database): void {
  if (tableExists(db, MARKER)) return;
  runInTransaction(db, () => {
    if (tableExists(db, MARKER)) return; // another connection did it meanwhile
    const rekeyed: [seq: number, hash: bigint][] = [];
    const rows = db.prepare('SELECT seq, url, url_hash FROM frontier_url').raw(true).safeIntegers(true);
    for (const [seq, url, stored] of rows.iterate() as Iterable<[bigint, string, bigint]>) {
      if (!mayHoldSessionId(url)) continue;
      const hash = urlHash(url);
      if (hash !== stored) rekeyed.push([Number(seq), hash]);
    }
    const rekey = db.prepare('UPDATE OR IGNORE frontier_url SET url_hash = ? WHERE seq = ?');
    for (const [seq, hash] of rekeyed) rekey.run(hash, seq);
    db.exec(`CREATE TABLE ${MARKER} (done INTEGER)`);
  });
}
