import type Database from 'better-sqlite3';
import { sqlDate } from '../store/sqlite';
import type { ChangeVerdict, CoherenceSummary, PageFingerprint } from '../coherence';

/** Longest main text kept per capture for the side-by-side view. */
export const MAX_STORED_TEXT = 20_000;

export interface StoredCoherencePage {
  id: number;
  url: string;
  parentUrl: string | null;
  depth: number;
  mime: string | null;
  visitedAt: number;
  visit: PageFingerprint;
  revisitedAt: number | null;
  status: string | null;
  /** Which test decided the status (ChangeEvidence). */
  evidence: string | null;
  changeRate: number | null;
}

/**
 * The coherence tables through the SQLite driver (the crawl's hot path, like CaptureStore): visit
 * fingerprints as pages are fetched, revisit outcomes during the revisit pass, the run's summary.
 */
export class CoherenceStore {
  private readonly upsertVisit;
  private readonly saveRevisit;

  constructor(private readonly db: Database.Database, private readonly crawlId: number) {
    // A page fetched again after a crash replaces its earlier visit row.
    this.upsertVisit = db.prepare(
      `INSERT INTO CoherencePage (crawlId, url, parentUrl, depth, mime, visitedAt, visit, visitText) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (crawlId, url) DO UPDATE SET parentUrl = excluded.parentUrl, depth = excluded.depth, mime = excluded.mime,
         visitedAt = excluded.visitedAt, visit = excluded.visit, visitText = excluded.visitText,
         revisitedAt = NULL, revisit = NULL, revisitText = NULL, status = NULL, evidence = NULL, similarity = NULL, verdict = NULL`,
    );
    this.saveRevisit = db.prepare(
      `UPDATE CoherencePage SET revisitedAt = ?, revisit = ?, revisitText = ?, status = ?, evidence = ?, similarity = ?, changeRate = ?, verdict = ?
       WHERE crawlId = ? AND url = ?`,
    );
  }

  recordVisit(v: { url: string; parentUrl: string | null; depth: number; mime: string | null; fingerprint: PageFingerprint; text: string }): void {
    this.upsertVisit.run(this.crawlId, v.url, v.parentUrl, v.depth, v.mime, sqlDate(new Date(v.fingerprint.fetchedAt)), JSON.stringify(v.fingerprint), v.text.slice(0, MAX_STORED_TEXT));
  }

  recordRevisit(url: string, r: { at: number; fingerprint: PageFingerprint | null; text: string | null; verdict: ChangeVerdict; changeRate: number | null }): void {
    const { status, evidence, similarity, linksAdded, linksRemoved, validatorsInconsistent } = r.verdict;
    this.saveRevisit.run(
      sqlDate(new Date(r.at)), r.fingerprint ? JSON.stringify(r.fingerprint) : null, r.text?.slice(0, MAX_STORED_TEXT) ?? null, status, evidence, similarity,
      r.changeRate, JSON.stringify({ linksAdded, linksRemoved, validatorsInconsistent }), this.crawlId, url,
    );
  }

  pages(): StoredCoherencePage[] {
    const rows = this.db.prepare('SELECT id, url, parentUrl, depth, mime, visitedAt, visit, revisitedAt, status, evidence, changeRate FROM CoherencePage WHERE crawlId = ? ORDER BY id').all(this.crawlId) as
      { id: number; url: string; parentUrl: string | null; depth: number; mime: string | null; visitedAt: string; visit: string; revisitedAt: string | null; status: string | null; evidence: string | null; changeRate: number | null }[];
    return rows.map((r) => ({
      ...r, visitedAt: Date.parse(r.visitedAt), visit: JSON.parse(r.visit) as PageFingerprint, revisitedAt: r.revisitedAt ? Date.parse(r.revisitedAt) : null,
    }));
  }

  /** The run's reference time, fixed the first time the revisit pass starts (so a resumed pass keeps it). */
  startRun(referenceAt: number): number {
    const existing = this.db.prepare('SELECT referenceTime FROM CoherenceRun WHERE crawlId = ?').get(this.crawlId) as { referenceTime: string } | undefined;
    if (existing) return Date.parse(existing.referenceTime);
    this.db.prepare('INSERT INTO CoherenceRun (crawlId, referenceTime, startedAt) VALUES (?, ?, ?)').run(this.crawlId, sqlDate(new Date(referenceAt)), sqlDate(new Date()));
    return referenceAt;
  }

  finishRun(summary: CoherenceSummary): void {
    this.db.prepare('UPDATE CoherenceRun SET finishedAt = ?, summary = ? WHERE crawlId = ?').run(sqlDate(new Date()), JSON.stringify(summary), this.crawlId);
  }

  /** Whether the revisit pass has begun (in this run or an earlier one): the visit pass is over. */
  revisitsBegun(): boolean {
    return revisitsBegun(this.db, this.crawlId);
  }

  isFinished(): boolean {
    return Boolean(this.db.prepare('SELECT finishedAt FROM CoherenceRun WHERE crawlId = ? AND finishedAt IS NOT NULL').get(this.crawlId));
  }
}

/** Whether the crawl's revisit pass has begun (its CoherenceRun is stored), without a store's statements. */
export function revisitsBegun(db: Database.Database, crawlId: number): boolean {
  return Boolean(db.prepare('SELECT 1 FROM CoherenceRun WHERE crawlId = ?').get(crawlId));
}
