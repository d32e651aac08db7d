import type Database from 'better-sqlite3';
import { bodyUnlessBomb, dnsFailure, gotNoAnswer, releaseBody } from '../fetch';
import { extractFromResponse, pageLinkSettingsOf } from '../extract';
import {
  adaptParentRule, afterFetch, backedOff, backoffAfterRound, isDue, HostTally, organPipesOrder, shouldRecrawlParent, transientFailure, DEFAULT_PARENT_RULE, DEFAULT_REVISIT_POLICY, type HostAnswer, type HostBackoff, type PageFingerprint, type RevisitState,
} from '../coherence';
import type { CrawlContext } from './crawl-context';
import { outLinksOf, planOutLinks } from './plan-out-links';
import { captureTitle } from './stages/extract-stage';
import { ROBOTS_REFUSAL } from '../robots/robots-refusal';
import { archive, logUnanswered, robotsExclusionOf, ROBOTS_RETRY_OUTCOME, type RobotsExclusion } from './revisit-pass';
import { politeFetch } from './polite-fetch';
import { aahOnRecrawl, recrawlObjects } from './aah-recrawl';
import type { RecrawlCheck } from './aah-runner';
import type { FailureReason } from '../capture';
import { pendingFailure, RECRAWL_HISTORY_DDL, saveFailure, saveRound, type RoundFailure } from './recrawl-history';
import { logRoundRecovery } from './round-failure-log';
import { HOST_BACKOFF_DDL, loadHostBackoffs, saveHostBackoffs, type NothingLeft } from './recrawl-host-backoff';
import { hostKeyOf, MANIFEST_KIND } from '../url';
import { addMissingColumn, runInTransaction } from '../store/sqlite';
import { answerChanged, answerOf, fingerprintKept, fingerprintOfAnswer, recrawlStart, startingCapture, storedFingerprintWanted, STATUS_ANSWER, type PageCapture, type RecrawlStart } from './recrawl-answer';
import { fingerprintHtml } from './page-fingerprint';
import { storedAnswerFingerprint } from './stored-fingerprint';
import { readRecordHttpHeaders } from '../warc/read-record';

/**
 * Scheduled recrawls (incremental crawling after Bouras et al.). Each round refetches the HTML
 * pages that are due under their fr / fr_max revisit frequency, with conditional GET; unchanged
 * payloads become revisit records; pages whose payload differs give their new links to the frontier.
 * Whether a page changed, for its frequency and the parent rule, is judged as the coherence view's
 * classifier judges a revisit (recrawl-answer.ts answerChanged): an HTML page by its fingerprint, so a
 * new "generated at" time or token is no change. Then the
 * selective-incremental rule refetches parents that were not due when enough of their children
 * changed, adapting its threshold. With an AAH, a changed page's links follow its navigation
 * verdict and its Web objects are compared with the stored ones (crawl log: `aah
 * structure-changed: …`; ./aah-recrawl.ts). State lives in engine_* tables beside the frontier's.
 */

const DDL = `
CREATE TABLE IF NOT EXISTS engine_recrawl_page (
  crawl_id INTEGER NOT NULL,
  url TEXT NOT NULL,
  parent_url TEXT,
  depth INTEGER NOT NULL,
  fr REAL NOT NULL,
  last_round INTEGER NOT NULL,
  -- The last 2xx payload's digest, or 'status:<code>' while the page answers a redirect or a client error.
  payload_digest TEXT,
  -- While that payload is an HTML page read whole: the JSON PageFingerprint a change is judged by
  -- (recrawl-answer.ts answerChanged), of the version last judged changed; null: none kept, a refetch
  -- whose payload differs computes that answer's from its WARC record (none read: the digest decides).
  fingerprint TEXT,
  etag TEXT,
  last_modified TEXT,
  -- 1: that payload decodes to more than maxDecodedBytes (a decompression bomb, archived unread).
  bomb INTEGER NOT NULL DEFAULT 0,
  -- The crawl-log outcome of robots.txt's refusal ('robots', 'robots-unavailable'), logged at the
  -- first round it refused the page; null since a request of the page was made (or before any refusal).
  robots_refusal TEXT,
  PRIMARY KEY (crawl_id, url)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS engine_recrawl (
  crawl_id INTEGER PRIMARY KEY,
  round INTEGER NOT NULL,
  finished_at INTEGER NOT NULL,
  parent_threshold REAL NOT NULL
);
-- What the round under way observed, a row a refetched page (in refetch order), so that a round
-- interrupted and run again knows the pages it already refetched; emptied when the round finishes.
CREATE TABLE IF NOT EXISTS engine_recrawl_result (
  crawl_id INTEGER NOT NULL,
  round INTEGER NOT NULL,
  url TEXT NOT NULL,
  changed INTEGER NOT NULL,
  -- 1: a parent the selective-incremental rule refetched; 0: a page due in the round.
  by_rule INTEGER NOT NULL,
  -- 0: no answer about the page (a transient failure, recorded with its capture or log entry): the
  -- rerun of the round does not request it again, and it stays due for the next round.
  observed INTEGER NOT NULL DEFAULT 1,
  -- What the refetch got from the page's host, for the round's host back-off when it is run again:
  -- 'answered', the failure's reason when it got nothing at all (gotNoAnswer), or null (not requested: robots.txt).
  host_answer TEXT
);
CREATE INDEX IF NOT EXISTS engine_recrawl_result_round ON engine_recrawl_result (crawl_id, round);
`;

/** engine_recrawl_result.host_answer of a refetch its host answered. */
const ANSWERED = 'answered';

interface PageRow {
  url: string;
  parent_url: string | null;
  depth: number;
  fr: number;
  last_round: number;
  payload_digest: string | null;
  fingerprint: string | null;
  etag: string | null;
  last_modified: string | null;
  bomb: number;
  robots_refusal: string | null;
}

/** A refetch of the round under way that observed the page (RecrawlState.results). */
export interface RoundResult {
  url: string;
  changed: boolean;
  /** Refetched by the selective-incremental rule, not because it was due. */
  byRule: boolean;
}

/**
 * A refetch of the round under way recorded (RecrawlState.results): one that observed its page, or
 * one that got no answer about it or was not made (`observed` false: robots.txt refused it, its host's
 * name did not resolve), archived or logged as such, and not requested again when the round is run again.
 */
export interface RecordedRefetch extends RoundResult {
  observed: boolean;
  /** What the refetch got from its host; null when it made no request (robots.txt refused it). */
  hostAnswer: HostAnswer | null;
}

export interface RoundReport {
  round: number;
  pages: number;
  /**
   * Pages due in the round (their revisit time had come) that it set out to refetch; not those of
   * a host waiting out a back-off (`backedOff`).
   */
  due: number;
  /**
   * Pages due in the round left out of it, unrequested, because their host gave no answer to the
   * rounds before and waits out its back-off (recrawl-host-backoff.ts); still due.
   */
  backedOff: number;
  /**
   * Refetches that observed their page (a 2xx, 304, redirect or client-error answer); not those
   * never requested, cut short, or without an answer about the page (transientFailure).
   */
  fetched: number;
  changed: number;
  /** Parents the rule refetched and observed. */
  parentsFetched: number;
  newLinks: number;
  parentThreshold: number;
}

export class RecrawlState {
  constructor(private readonly db: Database.Database, private readonly crawlId: number) {
    db.exec(DDL);
    db.exec(RECRAWL_HISTORY_DDL);
    db.exec(HOST_BACKOFF_DDL);
    // Tables created before these columns: their pages had no bomb recorded, their results were all observations.
    addMissingColumn(db, 'engine_recrawl_page', 'bomb', 'INTEGER NOT NULL DEFAULT 0');
    // Pages stored before: a refusal of robots.txt was logged at every round, so none is known as logged.
    addMissingColumn(db, 'engine_recrawl_page', 'robots_refusal', 'TEXT');
    // Pages stored before: judged by their digest until a round reads them again.
    addMissingColumn(db, 'engine_recrawl_page', 'fingerprint', 'TEXT');
    addMissingColumn(db, 'engine_recrawl_result', 'observed', 'INTEGER NOT NULL DEFAULT 1');
    // Results stored before: an observation was an answer; of the others, nothing is known.
    addMissingColumn(db, 'engine_recrawl_result', 'host_answer', 'TEXT');
    // Rounds reported before back-offs were counted apart: their due pages included those left out.
    addMissingColumn(db, 'engine_recrawl_round', 'backed_off', 'INTEGER NOT NULL DEFAULT 0');
  }

  /** The last finished round (0 = the initial crawl) and when it ended; null before any. */
  last(): { round: number; finishedAt: number; parentThreshold: number } | null {
    const row = this.db.prepare('SELECT round, finished_at, parent_threshold FROM engine_recrawl WHERE crawl_id = ?').get(this.crawlId) as { round: number; finished_at: number; parent_threshold: number } | undefined;
    return row ? { round: row.round, finishedAt: row.finished_at, parentThreshold: row.parent_threshold } : null;
  }

  /** Records `round` as the last finished one; with its report when a recrawl round (not round 0, nor a clock set back) ended. */
  finishRound(round: number, at: number, parentThreshold: number, report?: RoundReport): void {
    runInTransaction(this.db, () => {
      this.db.prepare('INSERT INTO engine_recrawl (crawl_id, round, finished_at, parent_threshold) VALUES (?, ?, ?, ?) ON CONFLICT (crawl_id) DO UPDATE SET round = excluded.round, finished_at = excluded.finished_at, parent_threshold = excluded.parent_threshold')
        .run(this.crawlId, round, at, parentThreshold);
      if (report) saveRound(this.db, this.crawlId, { ...report, finishedAt: at });
      this.db.prepare('DELETE FROM engine_recrawl_result WHERE crawl_id = ? AND round <= ?').run(this.crawlId, round);
    });
  }

  /** Stores one more failure of `round` (see recrawl-history.ts); returns the round's failure record. */
  fail(f: { round: number; at: number; message: string; url: string | null; retryAt: number | null }): RoundFailure {
    return saveFailure(this.db, this.crawlId, f);
  }

  /** The failure of the round under way (after the last finished one), if it failed. */
  pendingFailure(): RoundFailure | null {
    return pendingFailure(this.db, this.crawlId, this.last()?.round ?? 0);
  }

  /** What `round` recorded before it was interrupted (a pause, a restart), in refetch order. */
  results(round: number): RecordedRefetch[] {
    const rows = this.db.prepare('SELECT url, changed, by_rule, observed, host_answer FROM engine_recrawl_result WHERE crawl_id = ? AND round = ? ORDER BY rowid').all(this.crawlId, round) as { url: string; changed: number; by_rule: number; observed: number; host_answer: string | null }[];
    return rows.map((r) => {
      const answer = r.host_answer ?? (r.observed === 1 ? ANSWERED : null);
      const hostAnswer: HostAnswer | null = answer === null ? null : answer === ANSWERED ? { answered: true } : { answered: false, reason: answer };
      return { url: r.url, changed: r.changed === 1, byRule: r.by_rule === 1, observed: r.observed === 1, hostAnswer };
    });
  }

  /**
   * Adds the HTML pages captured since the last round (new pages are due in the next round), each
   * from its latest answer (recrawlStart: by fetch time, then id, whatever its status), which is what
   * the first round compares with: a page whose visit and revisit differ starts from its revisit, one
   * that answered 200 then 404 from its 404, one whose latest body a failed fetch cut off from the
   * answer before (none known if there is none). One whose payload is a decompression bomb (crawl-log
   * outcome `decompression-bomb`) is recorded as one.
   */
  async syncPages(ctx: CrawlContext, round: number): Promise<void> {
    // Every capture of each page new to the recrawls that was once captured as an HTML page (2xx).
    const captures = this.db.prepare(
      `WITH page AS (
         SELECT DISTINCT h.url AS url FROM Capture h
         WHERE h.crawlId = ? AND h.status BETWEEN 200 AND 299 AND h.mime IN ('text/html', 'application/xhtml+xml')
           AND NOT EXISTS (SELECT 1 FROM engine_recrawl_page p WHERE p.crawl_id = h.crawlId AND p.url = h.url))
       SELECT c.url AS url, c.status AS status, c.depth AS depth, c.payloadDigest AS payloadDigest, c.truncated AS truncated,
              c.warcFile AS warcFile, c.warcOffset AS warcOffset, c.warcLength AS warcLength
       FROM page JOIN Capture c ON c.crawlId = ? AND c.url = page.url
       ORDER BY c.url, c.fetchedAt DESC, c.id DESC`,
    );
    // Read through before the inserts (the connection runs one statement at a time), a page at a time.
    const starts: (RecrawlStart & { url: string; from: StoredCapture | null })[] = [];
    const take = (url: string, latestFirst: StoredCapture[]): void => {
      const start = recrawlStart(latestFirst);
      if (start) starts.push({ url, ...start, from: startingCapture(latestFirst) });
    };
    let url: string | null = null;
    let latestFirst: StoredCapture[] = [];
    for (const c of captures.iterate(this.crawlId, this.crawlId) as Iterable<StoredCapture & { url: string }>) {
      if (url !== c.url) {
        if (url !== null) take(url, latestFirst);
        url = c.url;
        latestFirst = [];
      }
      latestFirst.push(c);
    }
    if (url !== null) take(url, latestFirst);
    // The ETag and Last-Modified the answer compared with came with (its capture's HTTP head, in its
    // WARC record): the first round asks with them, as the later ones do with their refetches'.
    // Without them round 1 downloaded every page whole. A page that now answers a status keeps none.
    const validators = new Map<string, { etag: string | null; lastModified: string | null }>();
    for (const s of starts) {
      if (!s.from || !s.answer || s.answer.startsWith(STATUS_ANSWER)) continue;
      const v = await validatorsOf(ctx.writer.dir, s.from);
      if (v.etag || v.lastModified) validators.set(s.url, v);
    }
    // Few: read once over the log's (crawlId, outcome) index rather than once a page.
    const bombs = starts.length ? new Set(this.db.prepare("SELECT DISTINCT url FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'decompression-bomb'").pluck().all(this.crawlId) as string[]) : new Set<string>();
    // The fingerprint of that answer where the coherence view kept one (a visit–revisit crawl's visit or
    // revisit; a JSON parse). Elsewhere none: a refetch whose payload differs computes it from the
    // answer's WARC record (refetchPage), so a page whose payload is the same costs no read.
    const kept = this.db.prepare('SELECT visit, revisit FROM CoherencePage WHERE crawlId = ? AND url = ?');
    const fingerprints = new Map<string, string>();
    for (const s of starts) {
      if (s.answer === null || s.answer.startsWith(STATUS_ANSWER) || bombs.has(s.url)) continue;
      const row = kept.get(this.crawlId, s.url) as { visit: string; revisit: string | null } | undefined;
      const fp = row ? fingerprintOfAnswer(s.answer, [parseFingerprint(row.revisit), parseFingerprint(row.visit)]) : null;
      if (fp) fingerprints.set(s.url, JSON.stringify(fp));
    }
    const insert = this.db.prepare('INSERT OR IGNORE INTO engine_recrawl_page (crawl_id, url, parent_url, depth, fr, last_round, payload_digest, fingerprint, bomb, etag, last_modified) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    runInTransaction(this.db, () => {
      for (const s of starts) {
        // Excluded since its capture (live-exclusions.ts): not recrawled; taken up if the pattern is removed.
        if (ctx.excludedByPattern(s.url)) continue;
        // A page that now answers a status (a 404 after its bomb) holds no payload, a bomb or other.
        const bomb = bombs.has(s.url) && !s.answer?.startsWith(STATUS_ANSWER);
        const v = validators.get(s.url);
        insert.run(this.crawlId, s.url, ctx.frontier.lookup(this.crawlId, s.url)?.viaUrl ?? null, s.depth, DEFAULT_REVISIT_POLICY.frMax, round - 1, s.answer, fingerprints.get(s.url) ?? null, bomb ? 1 : 0, v?.etag ?? null, v?.lastModified ?? null);
      }
    });
  }

  /**
   * Drops a page an exclude pattern of the crawl now matches from the recrawls, saying so in the
   * crawl log once (outcome `exclude-match`), as the visit pass logs the links it excludes. Its
   * captures stay; should the pattern be removed, syncPages takes it up again as a new page.
   */
  dropExcluded(ctx: CrawlContext, url: string, round: number): void {
    runInTransaction(this.db, () => {
      this.db.prepare('DELETE FROM engine_recrawl_page WHERE crawl_id = ? AND url = ?').run(this.crawlId, url);
      ctx.store.addLog({ url, status: null, outcome: 'exclude-match', message: `recrawl round ${round}: not refetched, no longer recrawled: an exclude pattern of the crawl matches it`, size: 0, durationMs: 0, retries: 0, at: new Date() });
    });
    ctx.stats.recordExclusion('exclude-match');
  }

  pages(): PageRow[] {
    return this.db.prepare('SELECT url, parent_url, depth, fr, last_round, payload_digest, fingerprint, etag, last_modified, bomb, robots_refusal FROM engine_recrawl_page WHERE crawl_id = ?').all(this.crawlId) as PageRow[];
  }

  /**
   * A refetch's new state and, with it (one transaction), what the round observed (see results).
   * `v.bomb`: whether the new payload is a decompression bomb; null, with `v.digest`, keeps the last.
   * `v.fingerprint`: the JSON fingerprint to judge the next answer by (null: none).
   */
  save(url: string, state: RevisitState, v: { digest: string | null; fingerprint: string | null; bomb: boolean | null; etag: string | null; lastModified: string | null }, result: { changed: boolean; byRule: boolean }): void {
    runInTransaction(this.db, () => {
      this.db.prepare('UPDATE engine_recrawl_page SET fr = ?, last_round = ?, payload_digest = COALESCE(?, payload_digest), fingerprint = ?, bomb = COALESCE(?, bomb), etag = ?, last_modified = ?, robots_refusal = NULL WHERE crawl_id = ? AND url = ?')
        .run(state.fr, state.lastRound, v.digest, v.fingerprint, v.bomb === null ? null : v.bomb ? 1 : 0, v.etag, v.lastModified, this.crawlId, url);
      this.insertResult(state.lastRound, url, { ...result, observed: true, hostAnswer: { answered: true } });
    });
  }

  /**
   * A refetch of `round` that got no answer about the page: recorded with its capture or crawl-log
   * entry (the caller's transaction), so the round, run again after a pause or a restart, does not
   * request it again, and counts what its host answered (`hostAnswer`; null: no request made) for the
   * host's back-off. The page's state stays: it is due in the next round.
   */
  unobserved(round: number, url: string, byRule: boolean, hostAnswer: HostAnswer | null): void {
    // A request was made: robots.txt let it be, so a later refusal is a new one, logged again.
    if (hostAnswer) this.db.prepare('UPDATE engine_recrawl_page SET robots_refusal = NULL WHERE crawl_id = ? AND url = ?').run(this.crawlId, url);
    this.insertResult(round, url, { changed: false, byRule, observed: false, hostAnswer });
  }

  /** A refetch of `round` robots.txt refused (outcome `robots` or `robots-unavailable`): recorded as unobserved, the refusal kept with the page. */
  refusedByRobots(round: number, url: string, byRule: boolean, outcome: string): void {
    this.db.prepare('UPDATE engine_recrawl_page SET robots_refusal = ? WHERE crawl_id = ? AND url = ?').run(outcome, this.crawlId, url);
    this.unobserved(round, url, byRule, null);
  }

  /**
   * Of `hosts` (hostKeyOf): those with pages in the recrawls all refused by robots.txt since their
   * last request, each with one of its pages (`refused`), and those with no page in the recrawls any
   * more (`none`: exclude patterns dropped them all).
   */
  pagesLeft(hosts: readonly string[]): { refused: { host: string; url: string }[]; none: string[] } {
    const wanted = new Set(hosts);
    const refused = new Map<string, string>();
    const left = new Set<string>();
    for (const r of this.db.prepare('SELECT url, robots_refusal FROM engine_recrawl_page WHERE crawl_id = ?').all(this.crawlId) as { url: string; robots_refusal: string | null }[]) {
      const host = hostKeyOf(r.url);
      if (!wanted.has(host)) continue;
      if (r.robots_refusal === null) left.add(host);
      else if (!refused.has(host)) refused.set(host, r.url);
    }
    return {
      refused: [...refused].filter(([host]) => !left.has(host)).map(([host, url]) => ({ host, url })),
      none: hosts.filter((host) => !left.has(host) && !refused.has(host)),
    };
  }

  private insertResult(round: number, url: string, r: { changed: boolean; byRule: boolean; observed: boolean; hostAnswer: HostAnswer | null }): void {
    const answer = r.hostAnswer === null ? null : r.hostAnswer.answered ? ANSWERED : r.hostAnswer.reason;
    this.db.prepare('INSERT INTO engine_recrawl_result (crawl_id, round, url, changed, by_rule, observed, host_answer) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(this.crawlId, round, url, r.changed ? 1 : 0, r.byRule ? 1 : 0, r.observed ? 1 : 0, answer);
  }
}

/** Where a round is: the page it is refetching (null between pages), for the record of a failure. */
export interface RoundPosition {
  url: string | null;
}

/**
 * Runs one recrawl round; returns its report, or null when halted part-way (it reruns later).
 * `position`, when given, follows the page being refetched.
 */
export async function runRecrawlRound(ctx: CrawlContext, state: RecrawlState, o: { halted(): boolean; now?(): number; position?: RoundPosition }): Promise<RoundReport | null> {
  const now = o.now ?? Date.now;
  const last = state.last();
  const round = (last?.round ?? 0) + 1;
  let rule = { threshold: last?.parentThreshold ?? DEFAULT_PARENT_RULE.threshold };
  await state.syncPages(ctx, round);
  // A page an exclude pattern added since matches is not refetched, now or in this round (checked again before each refetch).
  // host → a page of it dropped so, for the crawl-log entry should its back-off end with no page left.
  const dropped = new Map<string, string>();
  const excluded = (p: PageRow): boolean => {
    if (!ctx.excludedByPattern(p.url)) return false;
    state.dropExcluded(ctx, p.url, round);
    dropped.set(hostKeyOf(p.url), p.url);
    return true;
  };
  const pages = state.pages().filter((p) => !excluded(p));
  // A host that gave no answer to the rounds before waits out its back-off: its pages stay due, unrequested.
  const backoffs = loadHostBackoffs(ctx.db, ctx.crawlId);
  const hostsAnswer = new HostTally();
  const waiting = (p: PageRow): boolean => backedOff(backoffs.get(hostKeyOf(p.url)), round);
  const dueNow = pages.filter((p) => isDue({ fr: p.fr, lastRound: p.last_round }, round));
  // Counted apart: a back-off round requests none of them, so they are not among the pages it had to refetch.
  let due = dueNow.filter((p) => !waiting(p));
  if (ctx.icd.coherence.mode === 'snapshot-organ-pipes') {
    // fr rises with observed changes: the hottest pages go to the middle of the round, where blur weighs least.
    const byUrl = new Map(due.map((p) => [p.url, p]));
    due = organPipesOrder(due.map((p) => ({ id: p.url, rate: p.fr }))).map((r) => byUrl.get(r.id)!);
  }
  // When a page the round could not observe is asked for again: in the next round, unless its host
  // answers none of the round's refetches (known when the round ends): then when its back-off is over.
  const whenRetried = (url: string): string => {
    const host = hostKeyOf(url);
    if (hostsAnswer.answered(host) !== false) return 'retried in the next round';
    const retryRound = backoffAfterRound(backoffs.get(host) ?? null, round, 'no answer')!.nextRound;
    return `retried in the next round, or in round ${retryRound} if its host answers none of this round's refetches`;
  };
  const report: RoundReport = { round, pages: pages.length, due: due.length, backedOff: dueNow.length - due.length, fetched: 0, changed: 0, parentsFetched: 0, newLinks: 0, parentThreshold: rule.threshold };
  const changedByUrl = new Map<string, boolean>();
  // Pages refetched because they were due, in refetch order: the children the parent rule counts.
  const dueRefetched: string[] = [];
  const observed = (r: RoundResult): void => {
    changedByUrl.set(r.url, r.changed);
    if (r.changed) report.changed++;
    if (!r.byRule) dueRefetched.push(r.url);
    else {
      report.parentsFetched++;
      rule = adaptParentRule(rule, r.changed);
    }
  };
  // A round interrupted before (a pause, a restart) goes on from what it recorded then: the pages it
  // refetched are no longer due, but their parents are still judged by them, and the parents the rule
  // refetched keep their say in the threshold. Those that got no answer about the page were archived
  // or logged as such: not requested again in this round (they stay due for the next one).
  // Every page the round recorded, then or now: none is requested twice in a round.
  const recorded = new Set<string>();
  for (const r of state.results(round)) {
    recorded.add(r.url);
    // The host back-off counts the refetches the round made before it was interrupted too.
    if (r.hostAnswer) hostsAnswer.note(hostKeyOf(r.url), r.url, r.hostAnswer);
    if (!r.observed) continue;
    report.fetched++;
    observed(r);
  }
  report.due += dueRefetched.length;

  const refetchAndSave = async (p: PageRow, byRule: boolean): Promise<void> => {
    // The page's new state is saved with the capture that observed it, in one transaction: a save
    // that fails leaves neither (the page is refetched when the round runs again, captured once),
    // and a capture never stands without its page's state (it was captured again at every retry).
    let saved = false;
    const record: RefetchRecord = {
      save: (r) => {
        // A first answer (no content known before) says nothing of how often the page changes: its frequency stays.
        const revisit = r.firstAnswer ? { fr: p.fr, lastRound: round } : afterFetch({ fr: p.fr, lastRound: p.last_round }, round, r.changed);
        state.save(p.url, revisit, r, { changed: r.changed, byRule });
        saved = true;
        recorded.add(p.url);
      },
      unobserved: (hostAnswer) => {
        state.unobserved(round, p.url, byRule, hostAnswer);
        recorded.add(p.url);
      },
      refusedByRobots: (outcome) => {
        state.refusedByRobots(round, p.url, byRule, outcome);
        recorded.add(p.url);
      },
    };
    // Each refetch waits its host's turn on the worker's politeness clocks (polite-fetch.ts).
    const changed = await refetchPage(ctx, p, round, o.halted, record, hostsAnswer, whenRetried);
    // Not requested (robots.txt said no, the name did not resolve), cut short, or no answer about the
    // page (transientFailure: refused, timed out, 5xx): nothing observed, nothing counted, the page
    // stays due (retried in the next round), and a parent so left out does not move the rule's threshold.
    if (changed === null || !saved) return;
    report.fetched++;
    report.newLinks += changed.newLinks;
    observed({ url: p.url, changed: changed.changed, byRule });
  };
  const refetch = async (p: PageRow, byRule: boolean): Promise<void> => {
    if (excluded(p) || waiting(p)) return;
    if (o.position) o.position.url = p.url;
    await refetchAndSave(p, byRule);
    // Not reached when it threw: the position names the page the round failed at.
    if (o.position) o.position.url = null;
  };

  for (const p of due) {
    if (o.halted()) return null;
    if (!recorded.has(p.url)) await refetch(p, false);
  }
  // Selective-incremental rule: parents not due this round whose children changed enough.
  const byUrl = new Map(pages.map((p) => [p.url, p]));
  const children = new Map<string, { changed: number; total: number }>();
  for (const url of dueRefetched) {
    const parentUrl = byUrl.get(url)?.parent_url;
    if (!parentUrl) continue;
    const c = children.get(parentUrl) ?? { changed: 0, total: 0 };
    c.total++;
    if (changedByUrl.get(url)) c.changed++;
    children.set(parentUrl, c);
  }
  for (const [parentUrl, c] of children) {
    const parent = byUrl.get(parentUrl);
    if (!parent || recorded.has(parentUrl) || !shouldRecrawlParent(rule, c.changed, c.total)) continue;
    if (o.halted()) return null;
    await refetch(parent, true);
  }
  // The last refetch cut short by a pause: the round is run again, from what it observed (results()).
  if (o.halted()) return null;
  report.parentThreshold = rule.threshold;
  const finishedAt = now();
  runInTransaction(ctx.db, () => {
    const failed = state.pendingFailure(); // read while the round is the one under way
    saveHostBackoffs(ctx, round, hostsAnswer, backoffs, nothingLeftToRefetch(state, round, hostsAnswer, backoffs, dropped));
    state.finishRound(round, finishedAt, rule.threshold, report);
    logRoundRecovery(ctx, failed, finishedAt);
  });
  return report;
}

/**
 * The hosts in back-off the round requested nothing of and that have nothing left to refetch, each
 * with one of its pages: those whose back-off is over but robots.txt refuses all their pages, and
 * those with no page in the recrawls any more (exclude patterns dropped them; `dropped`: a page of
 * each host dropped in this round; a host's name stands in for one dropped earlier). Nothing would
 * end their back-off (only an answer does): it stayed for ever, and counted the host's past rounds
 * without an answer should it fail again.
 */
function nothingLeftToRefetch(state: RecrawlState, round: number, tally: HostTally, backoffs: ReadonlyMap<string, HostBackoff>, dropped: ReadonlyMap<string, string>): NothingLeft[] {
  const unrequested = [...backoffs.keys()].filter((host) => tally.answered(host) === null);
  if (!unrequested.length) return [];
  const { refused, none } = state.pagesLeft(unrequested);
  return [
    // Refusals recorded before the back-off was over are not the host's last word: it is tried again then.
    ...refused.filter(({ host }) => !backedOff(backoffs.get(host), round)).map((r) => ({ ...r, why: 'robots-refused' as const })),
    ...none.map((host) => ({ host, url: dropped.get(host) ?? host, why: 'no-pages' as const })),
  ];
}

/** What a refetch observed of a page: whether it changed, and what to compare the next one with. */
interface Observed {
  changed: boolean;
  /** No content of the page was known before (its captures were all cut off by failed fetches): not a change, whatever it answered. */
  firstAnswer: boolean;
  newLinks: number;
  /** The answer to compare with next time (answerOf); null: the last one stays. */
  digest: string | null;
  /** The JSON fingerprint to judge the next answer by (fingerprintKept); null: none, the digest decides. */
  fingerprint: string | null;
  /** Whether that answer is a decompression bomb; null: as the last one. */
  bomb: boolean | null;
  etag: string | null;
  lastModified: string | null;
}

/** How refetchPage records its refetch in the transaction of its capture (or crawl-log entry). */
interface RefetchRecord {
  /** The page observed: its new state. */
  save(r: Observed): void;
  /** No answer about the page, or not requested: the round will not request it again; what its host answered (null: not asked). */
  unobserved(hostAnswer: HostAnswer | null): void;
  /** Not requested, robots.txt refusing it (its crawl-log outcome): as unobserved, the refusal kept with the page. */
  refusedByRobots(outcome: string): void;
}

/**
 * Refetches one page: archived, compared with its last payload, new links queued; `save` (the
 * page's new state) commits with its capture. Null when nothing was observed: not requested
 * (robots.txt refused it, its host's name did not resolve), cut short, or no answer about the page
 * (a transient failure: no connection, a timeout, 5xx, 429, 408), which says neither that it changed
 * nor that it did not: what the server answered is archived, and the page is not saved. Each is
 * recorded for the round (record.unobserved) and logged (a refusal of robots.txt only at the first
 * round it refuses the page), but for a cut short refetch. `whenRetried(url)`: when the page is asked for again, in words.
 */
async function refetchPage(ctx: CrawlContext, p: PageRow, round: number, halted: () => boolean, record: RefetchRecord, hosts: HostTally, whenRetried: (url: string) => string): Promise<Observed | null> {
  const conditional = p.etag || p.last_modified ? { etag: p.etag ?? undefined, lastModified: p.last_modified ?? undefined } : undefined;
  // robots.txt is asked again: it is read again each day (robots-cache.ts), and rounds run for weeks.
  const fetched = await politeFetch(ctx, p.url, { conditional, halted, robots: true });
  if (fetched.kind === 'robots-refused') {
    if (fetched.verdict.retryAt === undefined) notRequested(ctx, p, round, robotsExclusionOf(fetched.verdict), record);
    // robots.txt unreachable for now: nothing decided, the page is asked for again later; a pause cut
    // its fetch off (halted) says nothing, and the round run again asks again.
    else if (!halted()) robotsNotYetFetched(ctx, p.url, round, record, whenRetried(p.url));
    return null;
  }
  const host = hostKeyOf(p.url);
  // A name that does not resolve: nothing requested, logged as a fetch without an answer (outcome `dns`), as the revisit pass logs it.
  const outcome = fetched.kind === 'outcome' ? fetched.outcome : dnsFailure(fetched.message);
  const visit = { url: p.url, depth: p.depth, visitedAt: 0, visit: { payloadDigest: p.payload_digest ?? '' } };
  const message = `recrawl round ${round}`;
  if (!outcome.ok && outcome.reason === 'interrupted') return null; // a pause or stop cut it short: nothing observed
  // Nothing at all from the host (no connection, or not a byte before a timeout or a hang-up): a round of its back-off.
  const hostAnswer: HostAnswer = gotNoAnswer(outcome) ? { answered: false, reason: outcome.reason } : { answered: true };
  hosts.note(host, p.url, hostAnswer);
  const unanswered = () => record.unobserved(hostAnswer);
  const unobserved = `${message}; no answer about the page`;
  const retried = whenRetried(p.url);
  if (!outcome.ok) {
    // What the server sent (a 5xx after the retries, a body cut off) is archived, logged with the fetch's
    // failure as its outcome and counted among the failures, as a page's is (commitItem).
    // Recorded with it (record.unobserved), so the round run again after a pause does not request it again.
    if (outcome.partial) await archive(ctx, outcome.partial, visit, { message: `${unobserved} (${outcome.reason}): ${retried}`, failure: outcome.reason, alongside: unanswered, timing: outcome }).finally(() => releaseBody(outcome.partial!.body).catch(() => undefined));
    else {
      runInTransaction(ctx.db, () => {
        unanswered();
        logUnanswered(ctx, p.url, outcome, `${unobserved}, ${retried}`);
      });
    }
    return null;
  }
  const ex = outcome.exchange;
  // A 304 to a request that sent no validators (some servers answer any GET so) says nothing of the
  // page: not unchanged, not a change to a "304" answer; archived as a response, not as a revisit.
  const unasked304 = ex.status === 304 && !conditional;
  if (transientFailure(ex.status) || unasked304) {
    const why = unasked304 ? 'HTTP 304 to a request without validators' : `HTTP ${ex.status}`;
    await archive(ctx, ex, visit, { message: `${unobserved} (${why}): ${retried}`, alongside: unanswered, timing: outcome }).finally(() => releaseBody(ex.body).catch(() => undefined));
    return null;
  }
  const answer = answerOf(ex.status, ex.payloadDigest);
  // A page that answers a redirect or a client error keeps none of its former validators.
  const validators = answer.startsWith(STATUS_ANSWER)
    ? { etag: ex.headers['etag'] ?? null, lastModified: ex.headers['last-modified'] ?? null }
    : { etag: ex.headers['etag'] ?? p.etag, lastModified: ex.headers['last-modified'] ?? p.last_modified };
  const bombNote = `the body decodes to more than ${ctx.icd.limits.maxDecodedBytes} bytes`;
  // An unchanged page is not read again: one whose archived payload is a decompression bomb is still
  // one, logged with that outcome and counted among the failures as when it was read (its capture's).
  const stillBomb = p.bomb === 1 ? { failure: 'decompression-bomb' as const, note: `unchanged, not read: ${bombNote}` } : null;
  if (ex.status === 304 && p.payload_digest && !p.payload_digest.startsWith(STATUS_ANSWER)) {
    const unchanged: Observed = { changed: false, firstAnswer: false, newLinks: 0, digest: null, fingerprint: p.fingerprint, bomb: null, ...validators };
    const notes = [message, stillBomb?.note].filter(Boolean).join('; ');
    await archive(ctx, ex, visit, { profile: 'server-not-modified', message: notes, failure: stillBomb?.failure, alongside: () => record.save(unchanged), timing: outcome }).finally(() => releaseBody(ex.body).catch(() => undefined));
    return unchanged;
  }
  // Read as a changed page is (links, bomb, AAH) when it answers other than the content known, or
  // none is known (recrawlStart: only bodies cut off by failed fetches); changed only against a known
  // one, and, an HTML page with a fingerprint kept, only when the classifier finds it changed (answerChanged).
  const firstAnswer = p.payload_digest === null;
  const differs = answer !== p.payload_digest;
  // The fingerprint of a differing payload read as an HTML page (a same payload keeps the page's).
  let fingerprint: PageFingerprint | null = null;
  let newLinks = 0;
  let linksNote: string | null = null;
  // The AAH on the changed page: its links as on a first visit, its objects against the stored ones.
  let aah: RecrawlCheck | null = null;
  // Set once the page was read: a refetch whose reading threw is archived, and its page not saved.
  let result: Observed | null = null;
  // A decompression bomb: logged with that outcome and counted among the failures, as a page's is.
  let failure: FailureReason | undefined = differs ? undefined : stillBomb?.failure;
  // A changed page's title, for its capture row, as a first visit's (the captures list, a WACZ's pages).
  let title: string | undefined;
  if (!differs) linksNote = stillBomb?.note ?? null;
  try {
    // A page that moved (3xx) gives its new address, its Location, as on a first visit.
    if (differs && ex.status >= 200 && ex.status < 400) {
      const decoded = ex.status < 300 ? await bodyUnlessBomb(ex, ctx.icd.limits.maxDecodedBytes) : { body: Buffer.alloc(0), cut: false };
      // A decompression bomb is archived as received and its links are not read (it threw out of the round).
      if (!decoded) {
        linksNote = `links not read: ${bombNote}`;
        failure = 'decompression-bomb';
      } else {
        const { body, cut } = decoded;
        const entry = ctx.frontier.lookup(ctx.crawlId, p.url);
        const extracted = extractFromResponse({
          url: p.url, status: ex.status, headers: ex.headers, body, truncated: cut, maxDecodedBytes: ctx.icd.limits.maxDecodedBytes,
          ...pageLinkSettingsOf(ctx.icd.scope), text: false, declaredSitemap: entry?.kind === 'sitemap', declaredManifest: entry?.kind === MANIFEST_KIND,
          importMap: () => ctx.importMapOf(entry),
        });
        const { links, note } = outLinksOf(extracted, ctx.icd.scope.maxOutLinksPerPage);
        linksNote = note;
        title = captureTitle(extracted);
        if (extracted.kind === 'html') aah = aahOnRecrawl(ctx, ex, body, links);
        // Computed as the visit's (coherence-stage.ts): from the links the page gives the crawl.
        if (extracted.kind === 'html' && ex.status < 300) fingerprint = fingerprintHtml(ex, body, links).fingerprint;
        if (extracted.importMap) ctx.importMaps.keep(p.url, extracted.importMap);
        // Planned as the main crawl plans a page's links: from its hops outside the scope, and a
        // redirect it answers now taken as a requisite's when it is one (a frame that moved).
        const requisiteRedirects = ctx.requisiteRedirectsOf(entry, links);
        const embedHops = ctx.embedHopsOf(entry);
        const plan = planOutLinks({ url: p.url, host: new URL(p.url).host, depth: p.depth, priority: 0, lease: null, scopeHops: entry?.scopeHops, requisiteRedirects, embedHops, links }, ctx.scopeInput(), ctx.traps);
        newLinks = ctx.addLinks(plan.candidates).added;
        if (aah?.verdict) ctx.frontier.exclude(ctx.crawlId, plan.rejected);
      }
    }
    const now = { answer, fingerprint };
    const last = { answer: p.payload_digest ?? '', fingerprint: parseFingerprint(p.fingerprint) };
    // None kept of the last answer (a page new to the rounds, or kept by an earlier version): that
    // answer's, read from its stored record now that it is needed, once.
    if (storedFingerprintWanted({ ...last, bomb: p.bomb === 1 }, now)) last.fingerprint = await storedAnswerFingerprint(ctx, p.url, last.answer);
    const changed = !firstAnswer && answerChanged(last, now);
    const kept = differs ? fingerprintKept(last, now, changed) : null;
    result = {
      changed, firstAnswer, newLinks, digest: answer, fingerprint: differs ? (kept && JSON.stringify(kept)) : p.fingerprint,
      bomb: differs ? failure === 'decompression-bomb' : null, etag: validators.etag, lastModified: validators.lastModified,
    };
  } finally {
    const notes = [message, linksNote, aah?.summary].filter(Boolean).join('; ');
    const read = result;
    // The page's Web objects: their records right behind the capture's, their rows in its commit with
    // the page's state, as a first visit's are (warc-stage.ts, commit-item.ts): all stay, or none.
    const objects = read ? recrawlObjects(ctx, p.url, aah) : null;
    const committed = await archive(ctx, ex, visit, {
      message: notes,
      failure,
      alongside: read ? () => { record.save(read); objects?.store(); } : undefined,
      objects: objects?.records,
      timing: outcome,
      title,
    }).finally(() => releaseBody(ex.body).catch(() => undefined));
    // Where a first visit's objects go too (the CLI's objects.jsonl), once: a capture not committed
    // is captured again with its objects by the resumed round.
    if (committed && objects) ctx.onObjects(objects.found);
  }
  return result;
}

/**
 * A refetch robots.txt did not let be made, recorded for the round (record.refusedByRobots), so the
 * round run again after a pause does not ask again. The page stays in the recrawls, due: robots.txt,
 * read again each day, may allow it later. Its first refusal (since the page was last requested) is
 * logged as the visit and revisit passes log such a page (outcome `robots` or `robots-unavailable`)
 * and counted among the exclusions, in the same transaction; the rounds after, robots.txt still
 * refusing it the same way, say nothing more: one exclusion, not one a round for as long as the crawl runs.
 */
function notRequested(ctx: CrawlContext, p: PageRow, round: number, exclusion: RobotsExclusion, record: RefetchRecord): void {
  const { outcome, why } = ROBOTS_REFUSAL[exclusion];
  const firstRefusal = p.robots_refusal !== outcome;
  runInTransaction(ctx.db, () => {
    record.refusedByRobots(outcome);
    if (firstRefusal) ctx.store.addLog({ url: p.url, status: null, outcome, message: `recrawl round ${round}: not refetched: ${why}; asked again at each round it is due, not logged again while it refuses it`, size: 0, durationMs: 0, retries: 0, at: new Date() });
  });
  if (firstRefusal) ctx.stats.recordExclusion(outcome);
}

/**
 * A refetch not made because robots.txt could not be fetched for now (it is tried again later):
 * logged with why and when the page is asked for again, and recorded for the round in the same
 * transaction (record.unobserved, no request made), so the round run again after a pause neither
 * asks again nor logs it twice. Counted among the failures: the round did not get the page.
 */
function robotsNotYetFetched(ctx: CrawlContext, url: string, round: number, record: RefetchRecord, retried: string): void {
  runInTransaction(ctx.db, () => {
    record.unobserved(null);
    ctx.store.addLog({ url, status: null, outcome: ROBOTS_RETRY_OUTCOME, message: `recrawl round ${round}: not refetched: robots.txt could not be fetched for now; ${retried}`, size: 0, durationMs: 0, retries: 0, at: new Date() });
  });
  ctx.stats.recordFailure(ROBOTS_RETRY_OUTCOME);
}

/** A capture as syncPages reads it: what recrawlStart compares, and where its record lies. */
interface StoredCapture extends PageCapture {
  warcFile: string;
  warcOffset: number;
  warcLength: number;
}

/**
 * The ETag and Last-Modified of a stored capture, from its WARC record's HTTP head; none when the
 * record cannot be read (the round then asks without them, as before: nothing worse than a full download).
 */
async function validatorsOf(warcDir: string, c: StoredCapture): Promise<{ etag: string | null; lastModified: string | null }> {
  try {
    const h = await readRecordHttpHeaders(warcDir, c.warcFile, c.warcOffset, c.warcLength, ['etag', 'last-modified']);
    return { etag: h['etag'], lastModified: h['last-modified'] };
  } catch (err) {
    console.error(`tidemark: the validators of ${c.warcFile}:${c.warcOffset} could not be read: ${(err as Error).message}`);
    return { etag: null, lastModified: null };
  }
}

/** A fingerprint stored as JSON; null when none is, or what is stored is not one (the digest then decides). */
function parseFingerprint(json: string | null): PageFingerprint | null {
  if (json === null) return null;
  try {
    const fp = JSON.parse(json) as PageFingerprint | null;
    return fp && typeof fp.textDigest === 'string' && Array.isArray(fp.sketch) && Array.isArray(fp.outLinks) ? fp : null;
  } catch {
    return null;
  }
}
