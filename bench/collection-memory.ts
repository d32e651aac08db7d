// The export worker's peak memory for a collection of several large crawls of one ICD: each crawl's
// WARC files written by the crawl's own writer (small HTML pages, a request and a response each)
// with its Capture rows, then an export of them all run in a child process, once per case (WARC or
// WACZ; the crawls' files as they are, or a selection applied to each, which writes the
// collection's own WARC files). The child reports its peak RSS; `index` and `pages` are digests of
// the collection's CDXJ index and page list, the same from two versions of the code when the output
// is. Figures to bench/results/collection-memory.json.
// BENCH_COMMIT names the commit measured when run from a snapshot rather than a work tree.
// Run: node --import tsx bench/collection-memory.ts [--crawls 3] [--captures 200000] [--cases warc,wacz,warc-selection,wacz-selection] [--keep]
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { icdSchema } from '../worker/icd/schema';
import { runExport } from '../worker/export/export-job';
import { requestExport } from '../worker/process/crawl-requests';
import { openSqlite } from '../worker/store/sqlite';
import { insertCrawl, insertLaterCrawl, migratedDatabase } from '../test/support/crawl-rows';
import { writeManyCaptures } from '../test/support/many-captures';

const { values } = parseArgs({
  options: {
    crawls: { type: 'string', default: '3' },
    captures: { type: 'string', default: '200000' },
    cases: { type: 'string', default: 'warc,wacz,warc-selection,wacz-selection' },
    keep: { type: 'boolean', default: false },
    child: { type: 'string' },
  },
});

const HOSTS = 50;
const urlOf = (i: number) => `http://host${i % HOSTS}.example.org/section-${i % 97}/page-${i}.html`;
const warcDirOf = (dir: string, crawlId: number) => join(dir, 'warcs', String(crawlId));

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

/** The child: runs one export and prints its peak RSS. */
async function child(spec: string): Promise<void> {
  const { dir, exportId, crawlId } = JSON.parse(spec) as { dir: string; exportId: number; crawlId: number };
  const db = openSqlite(join(dir, 'state.db'));
  const started = performance.now();
  await runExport(db, { exportId, crawlId, warcDir: warcDirOf(dir, crawlId), exportDir: join(dir, 'exports', String(exportId)), otherCrawl: (id) => ({ warcDir: warcDirOf(dir, id) }) });
  const row = db.prepare('SELECT status, error, files FROM Export WHERE id = ?').get(exportId) as { status: string; error: string | null; files: string };
  process.stdout.write(JSON.stringify({ ...row, seconds: (performance.now() - started) / 1000, peakRssMb: process.resourceUsage().maxRSS / 1024 }));
}

/** Digests of the export's index and page list (read from the WACZ with unzip when packaged). */
function outputDigests(dir: string, files: { name: string }[]): { index: string; pages?: string; indexLines: number } {
  const wacz = files.find((f) => f.name.endsWith('.wacz'));
  const read = (inPackage: string, loose: string) => (wacz ? execFileSync('unzip', ['-p', join(dir, wacz.name), inPackage], { maxBuffer: 1 << 30 }) : readFileSync(join(dir, loose)));
  const index = read('indexes/index.cdx', 'index.cdxj');
  return { index: sha256(index), indexLines: index.toString().split('\n').filter(Boolean).length, ...(wacz ? { pages: sha256(read('pages/pages.jsonl', '')) } : {}) };
}

async function main(): Promise<void> {
  const crawls = Number(values.crawls);
  const captures = Number(values.captures);
  const dir = mkdtempSync(join(tmpdir(), 'tm-bench-collection-'));
  const results: Record<string, unknown>[] = [];
  try {
    const db = migratedDatabase(dir);
    db.prepare("INSERT INTO User (username, passwordHash, role, createdAt) VALUES ('bench', 'x', 'manager', datetime('now'))").run();
    const first = insertCrawl(db, icdSchema.parse({ name: 'Daily', seeds: [urlOf(0)] }));
    const ids = [first];
    for (let n = 1; n < crawls; n++) ids.push(insertLaterCrawl(db, first));
    let t = performance.now();
    for (const [day, id] of ids.entries()) await writeManyCaptures(db, warcDirOf(dir, id), id, captures, day, urlOf);
    console.log(`${crawls} crawls of ${captures.toLocaleString('en')} captures written in ${((performance.now() - t) / 1000).toFixed(0)} s`);
    const last = ids.at(-1)!;
    // Every host but one: a selection that takes most of each crawl, and writes it anew.
    const selection = { hosts: Array.from({ length: HOSTS - 1 }, (_, h) => `host${h + 1}.example.org`), requisites: false };
    for (const name of values.cases!.split(',')) {
      const format = name.startsWith('wacz') ? 'wacz' : 'warc';
      const outcome = requestExport(db, last, { requestedById: 1, selection: name.endsWith('selection') ? JSON.stringify(selection) : null, format, pageText: false, otherCrawlIds: ids.slice(0, -1) });
      if (typeof outcome !== 'object' || !('done' in outcome)) throw new Error(JSON.stringify(outcome));
      const exportId = outcome.done.id;
      t = performance.now();
      const run = spawnSync(process.execPath, ['--import', 'tsx', process.argv[1]!, '--child', JSON.stringify({ dir, exportId, crawlId: last })], { encoding: 'utf8', maxBuffer: 1 << 26 });
      if (run.status !== 0) throw new Error(`${name}: ${run.stderr}`);
      const r = JSON.parse(run.stdout) as { status: string; error: string | null; files: string; seconds: number; peakRssMb: number };
      if (r.status !== 'done') throw new Error(`${name}: ${r.status} ${r.error}`);
      const exportDir = join(dir, 'exports', String(exportId));
      const result = { case: name, crawls, captures, peakRssMb: Math.round(r.peakRssMb), seconds: Math.round(r.seconds), ...outputDigests(exportDir, JSON.parse(r.files)) };
      console.log(JSON.stringify(result));
      results.push(result);
      rmSync(exportDir, { recursive: true, force: true });
    }
    db.close();
  } finally {
    if (values.keep) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  const commit = process.env.BENCH_COMMIT ?? execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/collection-memory.json', `${JSON.stringify({ commit, node: process.version, at: new Date().toISOString(), results }, null, 2)}\n`);
}

if (values.child) await child(values.child);
else await main();
