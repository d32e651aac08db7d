// What the capture tallies' triggers (migration 20261202060000_capture_tally) cost: CAPTURES Capture
// rows stored through the crawl's CaptureStore, each with its crawl-log entry as a commit stores them,
// BATCH to a transaction, into two fresh migrated databases at once, one with the triggers and one
// without, a transaction each in turn; then both crawls deleted in batches (deleteCrawlRows, whose
// statements fire the delete trigger), their statements interleaved; and the report's mimeTypes and
// records read from the tallies against the GROUP BY over the captures they replace. Prints µs per
// capture and the ratios: on the shared machine the ratios say more than the times.
// Run: node --import tsx bench/capture-tally-cost.ts [--captures 100000] [--batch 50] [--runs 3]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type Database from 'better-sqlite3';
import { insertCrawl, migratedDatabase } from '../test/support/crawl-rows';
import { icdSchema } from '../worker/icd/schema';
import { CaptureStore } from '../worker/store/capture-store';
import { readCapturesReport } from '../worker/crawler/captures-report';
import { deleteCrawlRow } from '../worker/process/crawl-requests';
import { deleteCrawlRows } from '../worker/process/crawl-deletion';

const { values } = parseArgs({ options: { captures: { type: 'string', default: '100000' }, batch: { type: 'string', default: '50' }, runs: { type: 'string', default: '3' } } });
const CAPTURES = Number(values.captures);
const BATCH = Number(values.batch);
const RUNS = Number(values.runs);
const MIMES = ['text/html', 'text/html', 'text/html', 'image/png', 'image/jpeg', 'text/css', 'application/javascript', null];
const TRIGGERS = ['Capture_tally', 'Capture_tally_delete', 'Capture_tally_update'];

/** A crawl in a fresh migrated database, its capture tallies' triggers kept or dropped. */
interface Side {
  dir: string;
  db: Database.Database;
  crawlId: number;
  /** Stores the captures `from`… of one transaction. */
  storeBatch: (from: number) => void;
  storeMs: number;
  deleteMs: number;
}

function openSide(withTriggers: boolean): Side {
  const dir = mkdtempSync(join(tmpdir(), 'tidemark-bench-tally-'));
  const db = migratedDatabase(dir);
  if (!withTriggers) for (const name of TRIGGERS) db.exec(`DROP TRIGGER "${name}"`);
  const crawlId = insertCrawl(db, icdSchema.parse({ name: 'Tally cost', seeds: ['https://host0.example.org/'] }));
  db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop' WHERE id = ?").run(crawlId);
  const store = new CaptureStore(db, crawlId);
  const storeBatch = db.transaction((from: number) => {
    for (let i = from; i < Math.min(CAPTURES, from + BATCH); i++) {
      const url = `https://host${i % 500}.example.org/notices/${i}`;
      const revisit = i % 10 === 9;
      const size = 2_000 + (i % 3_000);
      store.addCapture({
        url, status: 200, mime: MIMES[i % MIMES.length]!, size, payloadDigest: `sha1:${i % 90_000}`, truncated: null, recordType: revisit ? 'revisit' : 'response',
        warcFile: `tidemark-${Math.floor(i / 20_000)}.warc.gz`, warcOffset: i * 1_000, warcLength: revisit ? 600 : Math.round(size / 3), warcRecordId: `<urn:uuid:${i}>`,
        depth: i % 6, score: null, scoreBreakdown: null, similarity: null, title: `Notice ${i}`, fetchedAt: new Date(), durationMs: 40,
      });
      store.addLog({ url, status: 200, outcome: 'ok', message: null, size, durationMs: 40, retries: 0, at: new Date() });
    }
  });
  return { dir, db, crawlId, storeBatch, storeMs: 0, deleteMs: 0 };
}

function timedMs(body: () => unknown): number {
  const start = performance.now();
  body();
  return performance.now() - start;
}

/**
 * One run: both sides' captures stored a transaction each in turn (which goes first alternating),
 * then both crawls deleted at once, their statements interleaved: a load that comes and goes on the
 * shared machine weighs on both alike.
 */
async function oneRun(): Promise<{ on: Side; off: Side; reportMs: number; groupByMs: number }> {
  const on = openSide(true);
  const off = openSide(false);
  try {
    for (let from = 0, turn = 0; from < CAPTURES; from += BATCH, turn++) {
      for (const side of turn % 2 ? [on, off] : [off, on]) side.storeMs += timedMs(() => side.storeBatch(from));
    }
    const reportMs = timedMs(() => readCapturesReport(on.db, on.crawlId));
    const groupByMs = timedMs(() => {
      on.db.prepare('SELECT mime, COUNT(*) AS captures, SUM(size) AS bytes FROM Capture WHERE crawlId = ? GROUP BY mime ORDER BY captures DESC, mime').all(on.crawlId);
      on.db.prepare('SELECT recordType, COUNT(*), SUM(size), SUM(warcLength) FROM Capture WHERE crawlId = ? GROUP BY recordType ORDER BY recordType DESC').all(on.crawlId);
    });
    await Promise.all(
      [on, off].map((side) => {
        side.db.pragma('wal_checkpoint(TRUNCATE)');
        deleteCrawlRow(side.db, side.crawlId);
        // Each statement's time, summed; between them the other side's statement runs.
        return deleteCrawlRows(side.db, side.crawlId, async (heldMs) => void (side.deleteMs += heldMs, await setImmediate()));
      }),
    );
    return { on, off, reportMs, groupByMs };
  } finally {
    for (const side of [on, off]) {
      side.db.close();
      rmSync(side.dir, { recursive: true, force: true });
    }
  }
}

const perCapture = (ms: number) => ((ms * 1_000) / CAPTURES).toFixed(1);
const rows: string[] = [];
for (let run = 1; run <= RUNS; run++) {
  const { on, off, reportMs, groupByMs } = await oneRun();
  rows.push(
    `| ${run} | ${perCapture(off.storeMs)} | ${perCapture(on.storeMs)} | ${(on.storeMs / off.storeMs).toFixed(3)} | ${perCapture(off.deleteMs)} | ${perCapture(on.deleteMs)} | ${(on.deleteMs / off.deleteMs).toFixed(3)} | ${reportMs.toFixed(2)} | ${groupByMs.toFixed(1)} |`,
  );
  console.log(rows.at(-1));
}
console.log(`\n${CAPTURES.toLocaleString('en')} captures, ${BATCH} a transaction; µs per capture (a capture and its log entry stored; deleted with its crawl), ms per report read\n`);
console.log('| run | store, no triggers | store, triggers | ratio | delete, no triggers | delete, triggers | ratio | report from tallies ms | GROUP BY ms |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
