// What one rescore of a queued URL costs (focused crawling with AVG, LAST, MAX or SUM rescores
// every link to a URL still queued: ~21 per page on the throughput benchmark's site), and how much
// of it is the frontier's row layout. Runs the frontier's own statements in the crawl's commit
// pattern (a transaction per group of 32 pages, a savepoint per page, 20 rescores each, random
// rows), against:
// - the same on an in-memory database (what is left without the WAL's page writes);
// - a narrow table holding only what rescoring and the queue order read (seq, host, state and the
//   score), with the queue index on it: the layout a split frontier_url would give.
// Run: npx tsx bench/rescore-cost.ts [--rows 5000,20000] [--rescores 100000] [--rounds 2]
import type Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { prepareStatements, S } from '../worker/frontier/frontier-sql';
import { precedenceOf } from '../worker/frontier/update-functions';
import { urlHash } from '../worker/frontier/url-hash';
import { openSqlite } from '../worker/store/sqlite';
import { mulberry32 } from './support/mulberry32';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '5000,20000' },
    rescores: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '2' },
  },
});
const ROWS = values.rows.split(',').map(Number);
const RESCORES = Number(values.rescores);
const ROUNDS = Number(values.rounds);
const PAGES_PER_COMMIT = 32;
const RESCORES_PER_PAGE = 20;
const HOST = '127.0.0.1:8080';
const BREAKDOWN = JSON.stringify({ scores: { text: 0.4123, spam: 1, urlPattern: 0.5 }, weights: { text: 0.6, spam: 0.2, urlPattern: 0.2 } });

type Layout = 'frontier' | 'frontier, in memory' | 'narrow table';

/** One rescore: read the row's score, write the new one (AVG-like: count + 1). */
type Rescore = (seq: number, score: number) => void;

function setUp(db: Database.Database, layout: Layout, rows: number, rand: () => number): Rescore {
  const st = prepareStatements(db);
  db.pragma('temp_store = MEMORY'); // as the crawl's group commit sets it
  const urlOf = (i: number) => `http://${HOST}/s${i % 50}/page-${i}.html`;
  db.transaction(() => {
    for (let i = 0; i < rows; i++) {
      const p = rand();
      st.insert.run(1, urlHash(urlOf(i)), urlOf(i), HOST, 2, 'navigation', `http://${HOST}/`, S.queued, null, precedenceOf(p), p, 1, p, Date.now(), BREAKDOWN);
    }
  })();
  if (layout !== 'narrow table') {
    return (seq, score) => {
      const r = st.scoreBySeq.get(seq) as [number, number, string, number, number, number];
      const count = r[4] + 1;
      const sum = r[5] + score;
      st.setScore.run(precedenceOf(sum / count), sum / count, count, sum, BREAKDOWN, seq);
    };
  }
  db.exec(`
    CREATE TABLE bench_queue (seq INTEGER PRIMARY KEY, host_id INTEGER NOT NULL, state INTEGER NOT NULL, precedence REAL NOT NULL, score_raw REAL NOT NULL, score_count INTEGER NOT NULL, score_sum REAL NOT NULL);
    INSERT INTO bench_queue SELECT seq, 1, state, precedence, score_raw, score_count, score_sum FROM frontier_url;
    CREATE INDEX bench_queue_order ON bench_queue (host_id, precedence DESC, seq) WHERE state = 0;
  `);
  const read = db.prepare('SELECT score_count, score_sum FROM bench_queue WHERE seq = ?').raw(true);
  const write = db.prepare('UPDATE bench_queue SET precedence = ?, score_raw = ?, score_count = ?, score_sum = ? WHERE seq = ?');
  return (seq, score) => {
    const r = read.get(seq) as [number, number];
    const count = r[0] + 1;
    const sum = r[1] + score;
    write.run(precedenceOf(sum / count), sum / count, count, sum, seq);
  };
}

/** Microseconds per rescore, in the crawl's commit pattern. */
function measure(layout: Layout, rows: number, seed: number): number {
  const dir = mkdtempSync(join(tmpdir(), 'rescore-cost-'));
  const db = openSqlite(layout === 'frontier, in memory' ? ':memory:' : join(dir, 'crawl.db'));
  try {
    const rand = mulberry32(seed);
    const rescore = setUp(db, layout, rows, rand);
    const commits = Math.ceil(RESCORES / (PAGES_PER_COMMIT * RESCORES_PER_PAGE));
    const t0 = performance.now();
    for (let c = 0; c < commits; c++) {
      db.transaction(() => {
        for (let p = 0; p < PAGES_PER_COMMIT; p++) {
          db.transaction(() => {
            for (let k = 0; k < RESCORES_PER_PAGE; k++) rescore(1 + Math.floor(rand() * rows), rand());
          })();
        }
      })();
    }
    return ((performance.now() - t0) * 1000) / (commits * PAGES_PER_COMMIT * RESCORES_PER_PAGE);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const LAYOUTS: Layout[] = ['frontier', 'frontier, in memory', 'narrow table'];
console.log(`${RESCORES.toLocaleString('en')} rescores per run, ${PAGES_PER_COMMIT} pages × ${RESCORES_PER_PAGE} per commit; µs per rescore, each of ${ROUNDS} rounds:`);
console.log(`| queued rows | ${LAYOUTS.join(' | ')} |`);
console.log(`|---:|${LAYOUTS.map(() => '---:').join('|')}|`);
for (const rows of ROWS) {
  const runs = new Map<Layout, number[]>(LAYOUTS.map((l) => [l, []]));
  // Layouts alternate within each round, so a slow spell of the machine hits them all.
  for (let r = 0; r < ROUNDS; r++) for (const layout of LAYOUTS) runs.get(layout)!.push(measure(layout, rows, 1000 + r));
  console.log(`| ${rows.toLocaleString('en')} | ${LAYOUTS.map((l) => runs.get(l)!.map((v) => v.toFixed(1)).join(', ')).join(' | ')} |`);
}
