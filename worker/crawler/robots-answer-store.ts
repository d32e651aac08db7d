import type Database from 'better-sqlite3';
import type { RobotsAnswer, RobotsAnswerStore } from '../robots';
import { tableExists } from '../store/sqlite';

// Not WITHOUT ROWID: a robots.txt text may be hundreds of KiB, far past the small rows it suits.
const DDL = `
CREATE TABLE IF NOT EXISTS engine_robots_answer (
  crawl_id INTEGER NOT NULL,
  origin TEXT NOT NULL,
  -- 'rules', 'allow-all' or 'disallow-all' (robots/robots-answer.ts)
  kind TEXT NOT NULL,
  -- epoch ms: robots.txt is fetched again from then on
  until INTEGER NOT NULL,
  -- rules: the robots.txt text they are read from; null for the other kinds
  body TEXT,
  PRIMARY KEY (crawl_id, origin)
);
`;

const KINDS: ReadonlySet<string> = new Set<RobotsAnswer['kind']>(['rules', 'allow-all', 'disallow-all']);

/**
 * A crawl's robots.txt answers in its SQLite state (engine_robots_answer, made when the first is
 * kept), so a resumed crawl — the CLI run again with the same --out, the cockpit's worker resuming
 * a paused or restarted crawl — does not fetch and archive every host's robots.txt again.
 * `mayKeep`: whether an answer decided now may be kept; false once a capture's commit was refused,
 * as the robots.txt capture it was read from may be one the next start cuts from the WARC files,
 * which the next run must then fetch again.
 */
export class SqliteRobotsAnswerStore implements RobotsAnswerStore {
  private made: boolean;

  constructor(
    private readonly db: Database.Database,
    private readonly crawlId: number,
    private readonly mayKeep: () => boolean = () => true,
  ) {
    this.made = tableExists(db, 'engine_robots_answer');
  }

  find(origin: string): RobotsAnswer | null {
    if (!this.made) return null;
    const row = this.db.prepare('SELECT kind, until, body FROM engine_robots_answer WHERE crawl_id = ? AND origin = ?').get(this.crawlId, origin) as
      | { kind: string; until: number; body: string | null }
      | undefined;
    return row ? answerOfRow(row) : null;
  }

  keep(origin: string, answer: RobotsAnswer): void {
    if (!this.mayKeep()) return;
    if (!this.made) {
      this.db.exec(DDL);
      this.made = true;
    }
    this.db
      .prepare('INSERT OR REPLACE INTO engine_robots_answer (crawl_id, origin, kind, until, body) VALUES (?, ?, ?, ?, ?)')
      .run(this.crawlId, origin, answer.kind, answer.until, answer.kind === 'rules' ? answer.text : null);
  }

  extend(origin: string, until: number): void {
    if (!this.made || !this.mayKeep()) return;
    this.db.prepare('UPDATE engine_robots_answer SET until = ? WHERE crawl_id = ? AND origin = ?').run(until, this.crawlId, origin);
  }
}

/** A row as an answer; null for one no answer reads from (a kind this Tidemark does not know, rules without their text). */
function answerOfRow(row: { kind: string; until: number; body: string | null }): RobotsAnswer | null {
  if (!KINDS.has(row.kind)) return null;
  if (row.kind === 'rules') return row.body === null ? null : { kind: 'rules', text: row.body, until: row.until };
  return { kind: row.kind as 'allow-all' | 'disallow-all', until: row.until };
}
