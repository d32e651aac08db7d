import type Database from 'better-sqlite3';
import type { ExclusionReason, FailureReason } from '../capture';
import type { AddResult, Candidate, Rejected, UpdateFunction } from './frontier';
import { RETAKABLE_REFUSALS } from '../url';
import { comesBefore, EMBED_KINDS, isSettled, REFUSED, REFUSED_TOO_DEEP, SETTLED, WAITING_ROW_UNKNOWN, type CrawlState, type HostEntry } from './crawl-state';
import { S, scoreRow, type HeadRow, type Statements } from './frontier-sql';
import { isShorterPath, type PathToUrl } from './shorter-path';
import { applyUpdate, firstScore, precedenceOf, provisionalScore, type ScoreState } from './update-functions';
import { urlHash } from './url-hash';

/** What the intake needs from the frontier (the caller wraps each call in one transaction). */
export interface IntakeContext {
  readonly st: Statements;
  entry(c: CrawlState, host: string): HostEntry;
  /** Reads the host's first queued URLs from the queue index when it holds none. */
  refillAhead(e: HostEntry): void;
  /** Writes a held row's unwritten score to the table and clears it. */
  writeScore(row: HeadRow): void;
}

/**
 * Inserts discovered URLs: new ones are queued, or excluded when over a budget or matching a live
 * exclusion (CrawlState.liveExcludes); duplicates of
 * queued URLs get the update function (FIRST writes nothing: the hot path stays one insert), and
 * wait as the discovery found them when it is a shorter way from the seeds (takeShorterPath).
 * A URL excluded before by a refusal this discovery overturns (a requisite or an extra hop the
 * scope took; RETAKABLE_REFUSALS) is queued now, once (retakeRefused). A fetched page whose links
 * the depth limit cut, found nearer the seeds, stands at the nearer depth, and its cut links are
 * handed back to be planned again from there (takeNearerWayToFetched).
 * Provisional candidates (batch mode) are queued with a provisional score and leave duplicates
 * alone: their batch's score comes later through rescore().
 * Hosts whose queue head changed are added to `touched` for the scheduler.
 */
export function insertCandidates(
  ctx: IntakeContext, c: CrawlState, cands: readonly Candidate[], fn: UpdateFunction, now: number, touched: Set<HostEntry>, provisional = false,
): AddResult {
  if (provisional) fn = 'FIRST';
  const res: AddResult = { added: 0, duplicates: 0, budgetExcluded: 0 };
  for (const cand of cands) {
    let known = c.knownUrls.get(cand.url);
    // Refused before, or found in the table without its state read (it may be refused): the scope
    // took it this time (a requisite, an extra hop, a link within the depth limit), which may
    // overturn the refusal.
    if (known === REFUSED || known === REFUSED_TOO_DEEP || known === WAITING_ROW_UNKNOWN) {
      if (retakeRefused(ctx, c, cand, urlHash(cand.url), touched, provisional, res)) continue;
      known = c.knownUrls.get(cand.url);
    }
    if (known !== undefined) {
      // A URL found again: FIRST keeps its score, and one no longer queued has no place to change,
      // so neither touches the table; one still queued is rescored without trying to insert it.
      res.duplicates += 1;
      if (c.storedAsEmbed(cand.url) && !EMBED_KINDS.has(cand.kind)) linkedAsPage(ctx, c, cand);
      // Only a link from a page nearer the seeds than the URL waits at costs a query (known > 0 then).
      if (c.queuedDeeper(cand.url, cand.depth)) takeShorterPathBySeq(ctx, c, cand, known);
      // Of the links to a fetched page, only one nearer the seeds than a page whose links the depth
      // limit cut costs a query (CrawlState.linksCutDeeper, a map lookup).
      else if (c.linksCutDeeper(cand.url, cand.depth)) takeNearerWayToFetchedByHash(ctx, c, cand, res);
      if (fn !== 'FIRST' && !isSettled(known)) rescoreQueued(ctx, c, rowLocator(cand.url, known), (s) => applyUpdate(s, cand.priority, fn), touched, cand.breakdown);
      continue;
    }
    const hash = urlHash(cand.url);
    const e = ctx.entry(c, cand.host);
    const reason = admissionRefusal(c, e, cand);
    const score = scoreOf(cand, provisional);
    const precedence = precedenceOf(score.raw);
    const ins = ctx.st.insert.run(
      c.crawlId, hash, cand.url, cand.host, cand.depth, cand.kind, cand.viaUrl ?? null, reason ? S.excluded : S.queued, reason,
      precedence, score.raw, score.count, score.sum, cand.discoveredAt ?? now, cand.breakdown ?? null, cand.scopeHops ?? null,
    );
    // Already in the table (a resumed crawl, or past the cap): rescoreQueued learns its state.
    remember(c, cand.url, ins.changes === 0 ? WAITING_ROW_UNKNOWN : reason ? SETTLED : Number(ins.lastInsertRowid));
    if (ins.changes === 0) {
      // Perhaps refused by an earlier run of the crawl, or before this process's known set was full:
      // one read of its state, after which the known set says where it stands.
      if (retakeRefused(ctx, c, cand, hash, touched, provisional, res)) continue;
      res.duplicates += 1;
      // Stored before this process knew it (a resumed crawl, past the cap), with a kind not read
      // here: a page link makes it a page at once; after an embed, a later page link asks the table.
      if (EMBED_KINDS.has(cand.kind)) c.noteStoredKind(cand.url, cand.kind);
      else linkedAsPage(ctx, c, cand);
      // That read told where it stands (past the cap, the hash finds it again).
      const where = c.knownUrls.get(cand.url);
      if (fn !== 'FIRST' && !isSettled(where)) rescoreQueued(ctx, c, rowLocator(cand.url, where), (s) => applyUpdate(s, cand.priority, fn), touched, cand.breakdown);
      continue;
    }
    admit(c, e, cand, Number(ins.lastInsertRowid), reason, score, touched, res);
  }
  return res;
}

/** Why a URL the scope took is still not queued: a live exclusion or a budget of the crawl; null when nothing stops it. */
function admissionRefusal(c: CrawlState, e: HostEntry, cand: Candidate): string | null {
  const { maxDepth, maxPages, maxPagesPerHost } = c.cfg;
  return (
    (c.liveExcludes.length > 0 ? c.liveExclusionOf(cand.url) : null) ??
    (maxDepth !== undefined && cand.depth > maxDepth ? 'max-depth'
    : c.admitted >= maxPages ? 'max-pages'
    : e.admitted >= maxPagesPerHost ? 'max-pages-per-host'
    : null)
  );
}

function scoreOf(cand: Candidate, provisional: boolean): ScoreState {
  return provisional ? provisionalScore(cand.priority) : firstScore(cand.priority);
}

/**
 * A URL stored with an embed kind (EMBED_KINDS: first found as a frame, say), found by a link of
 * another kind (a navigation link): it is a page as well, so its row takes that kind, whatever its
 * state, and a WACZ lists it among the pages. Its depth and the page it was found on stay.
 */
function linkedAsPage(ctx: IntakeContext, c: CrawlState, cand: Candidate): void {
  ctx.st.linkedAsPage.run(cand.kind, c.crawlId, urlHash(cand.url));
  c.noteStoredKind(cand.url, cand.kind);
}

/** Counts a URL just written as `cand` found it: excluded with `reason`, or queued and offered to its host's head. */
function admit(c: CrawlState, e: HostEntry, cand: Candidate, seq: number, reason: string | null, score: ScoreState, touched: Set<HostEntry>, res: AddResult): void {
  c.noteStoredKind(cand.url, cand.kind);
  if (reason) {
    res.budgetExcluded += 1;
    c.count(e, 'excluded', 1, reason);
    return;
  }
  res.added += 1;
  c.admitted += 1;
  e.admitted += 1;
  c.count(e, 'queued', 1);
  c.noteQueuedDepth(cand.url, cand.depth);
  const row: HeadRow = {
    url: cand.url, depth: cand.depth, kind: cand.kind, via_url: cand.viaUrl ?? null, precedence: precedenceOf(score.raw), seq, attempts: 0,
    score_raw: score.raw, score_count: score.count, score_sum: score.sum, scope_hops: cand.scopeHops ?? null, unwritten: null,
  };
  if (c.offerHead(e, row)) touched.add(e);
}

/**
 * A URL excluded by a refusal that `cand`, a discovery the scope accepted, overturns
 * (RETAKABLE_REFUSALS: an `<a>` link out of the scope, now a page's requisite or an extra hop; a
 * link past the depth limit, now one within it):
 * its row leaves the excluded state and is queued as `cand` found it (kind, depth, page, hops),
 * counted as queued instead of excluded; over a budget or under a live exclusion it stays
 * excluded, with that reason now. Only an excluded row moves, so the URL is queued once.
 * False when its row is not so refused (queued, fetched, excluded for good): the crawl's known set
 * then says where it stands, and `cand` is a duplicate, whose way a waiting row takes when it is
 * shorter (takeShorterPath).
 */
function retakeRefused(
  ctx: IntakeContext, c: CrawlState, cand: Candidate, hash: bigint, touched: Set<HostEntry>, provisional: boolean, res: AddResult,
): boolean {
  const row = ctx.st.stateOf.get(c.crawlId, hash) as StateRow | undefined;
  if (!row) {
    c.knownUrls.delete(cand.url); // not in the table after all: inserted as a new URL
    return false;
  }
  const [seq, state, was, host, depth, hops, stored] = row;
  if (state !== S.excluded || was === null || !RETAKABLE_REFUSALS.has(was)) {
    const waiting = state === S.queued || state === S.retrying;
    c.markQueued(cand.url, waiting ? seq : SETTLED, depth);
    if (waiting) takeShorterPath(ctx, c, cand, seq, host, { depth, hops });
    else if (state === S.done) takeNearerWayToFetched(ctx, c, cand, { seq, url: stored, depth, hops }, res);
    return false;
  }
  const e = ctx.entry(c, host);
  const reason = admissionRefusal(c, e, cand);
  const score = scoreOf(cand, provisional);
  ctx.st.retake.run(
    reason ? S.excluded : S.queued, reason, cand.depth, cand.kind, cand.viaUrl ?? null, precedenceOf(score.raw), score.raw, score.count, score.sum,
    cand.breakdown ?? null, cand.scopeHops ?? null, seq,
  );
  c.markQueued(cand.url, reason ? SETTLED : seq);
  c.count(e, 'excluded', -1, was);
  admit(c, e, cand, seq, reason, score, touched, res);
  return true;
}

/** takeShorterPath for a URL known to wait in row `seq` at a depth greater than `cand`'s: reads its state and way first. */
function takeShorterPathBySeq(ctx: IntakeContext, c: CrawlState, cand: Candidate, seq: number): void {
  const row = ctx.st.pathBySeq.get(seq) as [state: number, host: string, depth: number, hops: number | null] | undefined;
  if (row && (row[0] === S.queued || row[0] === S.retrying)) takeShorterPath(ctx, c, cand, seq, row[1], { depth: row[2], hops: row[3] });
  else c.markQueued(cand.url, SETTLED);
}

/** takeNearerWayToFetched for a page marked as fetched with links the depth limit cut: reads its row first. */
function takeNearerWayToFetchedByHash(ctx: IntakeContext, c: CrawlState, cand: Candidate, res: AddResult): void {
  const row = ctx.st.stateOf.get(c.crawlId, urlHash(cand.url)) as StateRow | undefined;
  if (row?.[1] === S.done) takeNearerWayToFetched(ctx, c, cand, { seq: row[0], url: row[6], depth: row[4], hops: row[5] }, res);
  else c.markQueued(cand.url, SETTLED);
}

/**
 * A page fetched as its row `stored` says, found again by `cand` (perhaps under another of its URLs:
 * one with other session ids; the links it cut name the URL it was fetched as). Under a depth limit, when
 * that is a shorter way from the seeds (isShorterPath) and the page refused links as too deep, the
 * row records the nearer way (depth, page, hops), so a later, nearer still discovery is judged from
 * there, and the refused links go back to the caller (AddResult.cutLinksFoundNearer), who plans
 * them from the nearer depth and adds them: a link the scope takes now is queued as any URL refused
 * as too deep is when a nearer page links to it (retakeRefused), counters and markers with it.
 * Found as deep or deeper, the page is marked when it cut links (CrawlState.noteLinksCut), for a
 * page this process did not see fetched (a restart, or past the known set's cap).
 * Limitation: only links whose row names this page as via_url, the first page to find them, are
 * taken again; a link first refused from another page is taken when that page, or another one
 * near enough, links to it.
 */
function takeNearerWayToFetched(ctx: IntakeContext, c: CrawlState, cand: Candidate, stored: PathToUrl & { seq: number; url: string }, res: AddResult): void {
  if (c.cfg.maxDepth === undefined) return;
  if (!isShorterPath(stored, { depth: cand.depth, hops: cand.scopeHops })) {
    if (ctx.st.hasCutLinks.get(c.crawlId, stored.url)) c.noteLinksCut(cand.url, stored.depth);
    return;
  }
  const links = ctx.st.cutLinks.all(c.crawlId, stored.url) as { url: string; kind: string }[];
  if (links.length === 0) {
    c.markQueued(cand.url, SETTLED); // nothing cut is left: its links cost no query from now on
    return;
  }
  ctx.st.takeNearerWayFetched.run(cand.depth, cand.viaUrl ?? null, cand.scopeHops ?? null, stored.seq);
  c.noteLinksCut(cand.url, cand.depth);
  (res.cutLinksFoundNearer ??= []).push({ url: stored.url, host: cand.host, depth: cand.depth, scopeHops: cand.scopeHops ?? null, kind: cand.kind, viaUrl: cand.viaUrl ?? null, links });
}

/**
 * A URL waiting in row `seq` (queued, or to be retried) as `stored` says, found again by `cand`:
 * when that is a shorter way from the seeds (isShorterPath), the row waits as `cand` found it
 * (depth, kind, page, hops), in the table, in the host's held URLs and in the known depths, so its
 * own links are judged from the nearer depth, after a restart too. A URL already leased keeps the
 * depth it was fetched at.
 */
function takeShorterPath(ctx: IntakeContext, c: CrawlState, cand: Candidate, seq: number, host: string, stored: PathToUrl): void {
  // Without a depth limit a URL's depth decides nothing, and no depths are kept (CrawlState.queuedDeeper).
  if (c.cfg.maxDepth === undefined || !isShorterPath(stored, { depth: cand.depth, hops: cand.scopeHops })) return;
  const way = { depth: cand.depth, kind: cand.kind, via_url: cand.viaUrl ?? null, scope_hops: cand.scopeHops ?? null };
  ctx.st.takeShorterPath.run(way.depth, way.kind, way.via_url, way.scope_hops, seq);
  c.noteQueuedDepth(cand.url, cand.depth);
  c.noteStoredKind(cand.url, cand.kind);
  const held = c.aheadRow(host, seq);
  if (held) Object.assign(held, way);
}

/** A row as stateOf reads it. */
type StateRow = [seq: number, state: number, reason: string | null, host: string, depth: number, hops: number | null, url: string];

/** Most URLs the in-memory known set holds (~100 bytes each). */
export const KNOWN_URLS_CAP = 1_000_000;

function remember(c: CrawlState, url: string, where: number): void {
  if (c.knownUrls.size < KNOWN_URLS_CAP) c.knownUrls.set(url, where);
}

/** How rescoreQueued finds a URL's row: by seq when known (the primary key), else by its hash. */
export type RowLocator = { url: string } & ({ seq: number } | { hash: bigint });

function rowLocator(url: string, known: number | undefined): RowLocator {
  return known !== undefined && known > 0 ? { url, seq: known } : { url, hash: urlHash(url) };
}

/** The locator of a URL's row from what the crawl knows of it. */
export function rowOf(c: CrawlState, url: string): RowLocator {
  return rowLocator(url, c.knownUrls.get(url));
}

/** Records rejected URLs as seen and excluded with their reason; returns how many were new. */
export function insertRejected(ctx: IntakeContext, c: CrawlState, rejected: readonly Rejected[], now: number): number {
  let n = 0;
  for (const r of rejected) {
    if (c.knownUrls.has(r.url)) continue;
    // A refusal another page may overturn (a requisite, an extra hop, a link nearer the seeds) is
    // remembered as such; links like this one found again are still dropped before they reach the
    // frontier, at no cost.
    remember(c, r.url, r.withinScopeShallower && r.reason === 'max-depth' ? REFUSED_TOO_DEEP : RETAKABLE_REFUSALS.has(r.reason) ? REFUSED : SETTLED);
    const changes = ctx.st.insert.run(
      c.crawlId, urlHash(r.url), r.url, r.host, r.depth ?? 0, r.kind ?? 'page', r.viaUrl ?? null, S.excluded, r.reason, 0, 0, 1, 0, now, null, null,
    ).changes;
    // Its page cut a link a page nearer the seeds would take: found again from one, it costs a
    // query then (takeNearerWayToFetched), and no other link to a fetched page does.
    if (r.withinScopeShallower && r.reason === 'max-depth' && r.viaUrl && c.cfg.maxDepth !== undefined) c.noteLinksCut(r.viaUrl, (r.depth ?? 1) - 1);
    if (changes === 0) continue;
    c.count(ctx.entry(c, r.host), 'excluded', 1, r.reason);
    n += 1;
  }
  return n;
}

/**
 * Records every URL waiting in frontier_intake for the crawl that it has not seen as excluded with
 * `reason` (a blacklisted one as `blacklisted`; a URL posted more than once as its first post says),
 * in one statement over the whole set rather than one per URL; counts them. Returns how many.
 * They are not added to the URLs this process knows (knownUrls), as insertRejected adds each: its
 * callers end the crawl's visits, and a URL missing from that set costs a query, never a wrong
 * answer; adding 100,000 took 60-80 ms of the settling's ~1 s.
 */
export function insertWaitingIntake(ctx: IntakeContext, c: CrawlState, reason: ExclusionReason, now: number): number {
  const inserted = ctx.st.excludeIntake.all({ reason, now, crawlId: c.crawlId }) as [host: string, reason: string][];
  for (const [host, why] of inserted) c.count(ctx.entry(c, host), 'excluded', 1, why);
  return inserted.length;
}

/**
 * Excludes with `reason` every queued or retrying URL of the crawl that matches `pattern`, one
 * statement per state over the whole set (the SQL function frontier_url_matches), and excludes
 * URLs offered from now on that match it (CrawlState.liveExcludes). URLs in flight are left to
 * finish. Keeps the counters and the hosts' held URLs in step; the hosts it changed go to
 * `touched`, the retrying rows it excluded to `retryingExcluded` (the caller drops their retries).
 * Returns how many were excluded.
 */
export function excludeWaitingMatching(
  ctx: IntakeContext, c: CrawlState, pattern: string, reason: ExclusionReason, touched: Set<HostEntry>, retryingExcluded: Set<number>,
): number {
  c.liveExcludes.push({ pattern, re: new RegExp(pattern), reason });
  const params = { crawlId: c.crawlId, pattern, reason };
  return settleWaiting(ctx, c, { queued: ctx.st.excludeQueuedMatching, retrying: ctx.st.excludeRetryingMatching }, params, 'excluded', reason, touched, retryingExcluded);
}

/**
 * Fails with `reason` every queued or retrying URL of one host of the crawl (a host given up, its
 * back-off over without an answer: politeness/host-outage.ts), one statement per state; URLs in
 * flight finish. As excludeWaitingMatching, keeps the counters and held URLs in step. Returns how many.
 */
export function failHostWaiting(
  ctx: IntakeContext, c: CrawlState, host: string, reason: FailureReason, now: number, touched: Set<HostEntry>, retryingFailed: Set<number>,
): number {
  const params = { crawlId: c.crawlId, host, reason, now };
  return settleWaiting(ctx, c, { queued: ctx.st.failHostQueued, retrying: ctx.st.failHostRetrying }, params, 'failed', reason, touched, retryingFailed);
}

/**
 * Runs a statement settling waiting rows for each state (each returning the rows' seq, host and
 * url) and moves them in memory: counters, known URLs, the hosts' held URLs. The hosts changed go
 * to `touched`, the retrying rows settled to `retryingSettled` (the caller drops their retries).
 */
function settleWaiting(
  ctx: IntakeContext, c: CrawlState, statements: Record<'queued' | 'retrying', Database.Statement>, params: object, to: 'excluded' | 'failed', reason: string,
  touched: Set<HostEntry>, retryingSettled: Set<number>,
): number {
  const hosts = new Set<HostEntry>();
  let n = 0;
  for (const from of ['queued', 'retrying'] as const) {
    for (const [seq, host, url] of statements[from].all(params) as [number, string, string][]) {
      const e = ctx.entry(c, host);
      c.move(e, from, to, reason);
      c.markQueued(url, SETTLED);
      if (from === 'queued') c.takeAhead(e, seq);
      else retryingSettled.add(seq);
      hosts.add(e);
      n += 1;
    }
  }
  for (const e of hosts) {
    if (e.queued === 0) c.setAhead(e, []);
    else ctx.refillAhead(e);
    touched.add(e);
  }
  return n;
}

/** Applies a score update to a queued (or retrying) URL and keeps the host's head right. */
export function rescoreQueued(
  ctx: IntakeContext, c: CrawlState, at: RowLocator, update: (s: ScoreState) => ScoreState, touched: Set<HostEntry>, breakdown?: string | null,
): boolean {
  const heldAt = 'seq' in at ? c.heldRow(at.seq) : undefined;
  if (heldAt) return rescoreHeld(ctx, c, heldAt, update, touched, breakdown ?? null);
  const row = scoreRow(('seq' in at ? ctx.st.scoreBySeq.get(at.seq) : ctx.st.scoreOf.get(c.crawlId, at.hash)) as unknown[] | undefined);
  if (!row || (row.state !== S.queued && row.state !== S.retrying)) {
    // A fetched page keeps its mark of links the depth limit cut (a rescore of it changes nothing).
    if (row && !isSettled(c.knownUrls.get(at.url))) c.markQueued(at.url, SETTLED);
    return false;
  }
  c.markQueued(at.url, row.seq);
  // Found by its hash, it may be held with a score newer than the table's.
  const heldNow = c.heldRow(row.seq);
  if (heldNow) return rescoreHeld(ctx, c, heldNow, update, touched, breakdown ?? null);
  const next = update({ raw: row.raw, count: row.count, sum: row.sum });
  const precedence = precedenceOf(next.raw);
  ctx.st.setScore.run(precedence, next.raw, next.count, next.sum, breakdown ?? null, row.seq);
  const e = c.hosts.get(row.host);
  if (row.state !== S.queued || !e?.head) return true;
  // Moves the row within the host's first URLs, in or out of them.
  const head = e.head;
  const held = c.takeAhead(e, row.seq);
  const last = e.ahead[e.ahead.length - 1];
  if (!last) ctx.refillAhead(e); // it was the only one held: the index knows who follows
  else if (comesBefore({ precedence, seq: row.seq }, last)) c.offerHead(e, held ? { ...held, precedence } : (ctx.st.headBySeq.get(row.seq) as HeadRow));
  if (e.head !== head) touched.add(e);
  return true;
}

/**
 * Rescores a row the host holds (a rescoring crawl): in memory, with no query; the new score is
 * written when the row leaves the queue, at a flush, or as soon as it stops being held.
 */
function rescoreHeld(
  ctx: IntakeContext, c: CrawlState, { e, row }: { e: HostEntry; row: HeadRow }, update: (s: ScoreState) => ScoreState, touched: Set<HostEntry>, breakdown: string | null,
): boolean {
  const next = update({ raw: row.score_raw, count: row.score_count, sum: row.score_sum });
  // The head may stay the same row with a new score: the scheduler must hear of that too.
  const [headSeq, headPrecedence] = [e.headSeq, e.headPrecedence];
  // One object per held row while its score is unwritten, not one per rescore.
  if (!row.unwritten) row.unwritten = { breakdown };
  else if (breakdown !== null) row.unwritten.breakdown = breakdown;
  if (!c.rescoreHeld(e, row, { precedence: precedenceOf(next.raw), ...next })) {
    ctx.writeScore(row); // it left the held URLs: the index orders it
    ctx.refillAhead(e); // when it was the only one held, the index knows who comes first
  }
  if (e.headSeq !== headSeq || e.headPrecedence !== headPrecedence) touched.add(e);
  return true;
}

const COUNTED_BY_STATE = ['queued', 'queued', 'done', 'failed', 'excluded', 'retrying'] as const;

/**
 * Loads an opened crawl's counters from its rows; URLs a dead process left in flight were never
 * acknowledged, so they are queued again. Returns the URLs waiting to be retried.
 */
export function resumeCrawl(ctx: IntakeContext, c: CrawlState): { seq: number; host: string; not_before: number }[] {
  ctx.st.requeueInFlight.run(c.crawlId);
  for (const r of ctx.st.countByHost.all(c.crawlId) as { host: string; state: number; reason: string | null; n: number }[]) {
    const e = ctx.entry(c, r.host);
    c.count(e, COUNTED_BY_STATE[r.state]!, r.n, r.reason);
    if (r.state !== S.excluded) {
      e.admitted += r.n;
      c.admitted += r.n;
    }
  }
  return ctx.st.retrying.all(c.crawlId) as { seq: number; host: string; not_before: number }[];
}
