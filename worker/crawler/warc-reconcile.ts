import type Database from 'better-sqlite3';
import { existsSync, readdirSync } from 'node:fs';
import { truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { scanGzipMembers } from '../warc/gzip-members';
import { field, parseWarcHead } from '../warc/parse-heads';
import { recoverOpenFiles } from '../warc/recover-open-files';
import { crawlWarcId, isWarcFileOf } from '../warc';
import { finalizeIndex } from '../warc/cdxj-index';

/**
 * Before the WARC writer recovers a file a crash left open, cut it back to the first capture the
 * database never acknowledged. Commits follow WARC order (CommitSequencer), so acknowledged
 * captures form a prefix of the file; the pages after the cut are fetched again, once.
 * Returns the number of bytes cut per file.
 */
export async function cutUncommittedTail(db: Database.Database, crawlId: number, warcDir: string): Promise<Record<string, number>> {
  const cuts: Record<string, number> = {};
  if (!existsSync(warcDir)) return cuts;
  const committedIn = db.prepare('SELECT warcOffset FROM Capture WHERE crawlId = ? AND warcFile = ?');
  // This crawl's files only: another tool's file being written is not ours to cut.
  for (const name of readdirSync(warcDir).filter((n) => n.endsWith('.warc.gz.open') && isWarcFileOf(crawlWarcId(crawlId), n))) {
    const path = join(warcDir, name);
    const closedName = name.slice(0, -'.open'.length);
    const committed = new Set((committedIn.all(crawlId, closedName) as { warcOffset: number }[]).map((r) => r.warcOffset));
    let cutAt: number | null = null;
    const scan = await scanGzipMembers(path, (member) => {
      if (cutAt !== null) return;
      const head = parseWarcHead(member.head);
      const type = head ? field(head.fields, 'WARC-Type') : undefined;
      if ((type === 'response' || type === 'revisit') && !committed.has(member.offset)) cutAt = member.offset;
    }, 4096);
    const end = cutAt ?? scan.validEnd;
    if (end < scan.fileSize) {
      await truncate(path, end);
      cuts[name] = scan.fileSize - end;
    }
  }
  return cuts;
}

/**
 * Closes the files a worker that died left open in `warcDir` (cut back to what the database
 * acknowledged, closed, the index sorted), as the next run's start would, for a crawl paused or
 * stopped before any run started again, and before each export (a full disk pauses a crawl with
 * its last file open): an export takes closed files only, so without this a stopped crawl could
 * not be exported and a paused one was exported without its last file.
 * Returns whether there was anything to close.
 */
export async function closeFilesLeftOpen(db: Database.Database, crawlId: number, warcDir: string): Promise<boolean> {
  if (!existsSync(warcDir) || !readdirSync(warcDir).some((n) => n.endsWith('.open'))) return false;
  await cutUncommittedTail(db, crawlId, warcDir);
  await recoverOpenFiles(warcDir, crawlWarcId(crawlId));
  await finalizeIndex(warcDir);
  return true;
}
