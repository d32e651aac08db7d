import type { CaptureSummary } from '../events/messages';
import type Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Icd } from '../icd/schema';
import { EMBED_KINDS, type AddOptions, type AddResult, type Candidate, type SqliteFrontier } from '../frontier';
import { politenessDelayMs, type KeyTiming } from '../politeness';
import { crawlWarcId, mediaTypeOf, POLITE_HANDOVER_WAIT_MS, SOFTWARE, WarcWriter, type CaptureLocation } from '../warc';
import type { FailureReason, HttpExchange } from '../capture';
import { createAddressGuard, createFetcher, releaseBody, resolveHost, type AddressGuard, type BackoffConfig, type Fetcher, type FetchTiming } from '../fetch';
import { RobotsCache, robotsCaptureMessage, robotsTxtUrlOf, robotsUnansweredMessage, type RobotsVerdict } from '../robots';
import { compileScope, embedHopsOf, hostInScope, hostKeyOf, listedHostName, mayRetakeRefused, moduleDocumentOf, ReferenceCache, requisiteRedirectsOf, TrapDetector } from '../url';
import { planOutLinks, type ScopeInput } from './plan-out-links';
import { faviconLink, type ResolvedImportMap } from '../extract';
import { ImportMapStore } from './import-map-store';
import type { OutLink } from './stage';
import { openStoredCookieJar, type StoredCookieJar } from '../store/cookie-jar-store';
import { CaptureStore, storedSimilarities, type LogSubject } from '../store/capture-store';
import { AdaptedRuleStore } from '../store/adapted-rule-store';
import { archivedOutcome, CrawlStatsTracker, EXCLUSION_OUTCOMES, NOT_A_FETCH_OUTCOMES } from './crawl-stats';
import { HOST_UNREACHABLE } from '../politeness';
import { failuresTakenBack } from './host-outages';
import { CommitSequencer, commitInOrder } from './commit-sequencer';
import { GroupCommit } from './group-commit';
import { SqliteDedupLookup } from './sqlite-dedup';
import { cutUncommittedTail } from './warc-reconcile';
import { FocusAnalysis } from './focus-analysis';
import { AahRunner } from './aah-runner';
import { seedFrontier } from './seed-frontier';
import { CoherenceStore } from './coherence-store';
import { CpuTurns } from './cpu-turns';
import { robotsRequest, type RobotsRequest } from './robots-request';
import { SqliteRobotsAnswerStore } from './robots-answer-store';
import { visitSetCloses } from '../coherence';
import { crawlFrontierConfig } from './frontier-config';

/** One `?` per value, for an `IN (…)` list that follows the outcome lists as they grow. */
const marksOf = (values: readonly unknown[]) => values.map(() => '?').join(', ');

/** A crawl's copy of a knowledge base stored in the cockpit, taken when the crawl was created. */
export interface CrawlKnowledgeBase {
  name: string;
  xml: string;
}

export interface CrawlContextOptions {
  crawlId: number;
  icd: Icd;
  db: Database.Database;
  warcDir: string;
  spoolDir: string;
  /**
   * The knowledge base the AAH runs with when the ICD turns it on: the crawl's copy of one stored
   * in the cockpit (Crawl.knowledgeBaseXml). An invalid copy fails the crawl's start, saying so.
   */
  knowledgeBase?: CrawlKnowledgeBase;
  /** Without `knowledgeBase`: the knowledge-base file the AAH reads (the CLI; crawls created before copies were taken). */
  kbPath?: string;
  /**
   * Tests only: the AAH's time budget for one page, in ms (AahEngineOptions.maxAnalysisMs; the CLI's
   * TIDEMARK_TEST_AAH_BUDGET_MS, read by the server's worker too). A test of what the AAH does with a page on a loaded machine sets it
   * high, as the budget is wall-clock time: the page is otherwise skipped as too slow to analyse.
   */
  aahBudgetMs?: number;
  frontier: SqliteFrontier;
  /** Ends every fetch at once, as `interrupted` (a pause or stop that waited long enough). */
  interrupt?: AbortSignal;
  /** A pause or stop was asked for: waits for a host's turn end (default: never). */
  halted?(): boolean;
  /** How long robots.txt answers are kept (RobotsCacheOptions.maxAgeMs: a day; tests shorten it). */
  robotsMaxAgeMs?: number;
  /** Waits between tries of an unreachable robots.txt (RobotsCacheOptions.backoff: from 30 s; tests shorten it). */
  robotsBackoff?: BackoffConfig;
  /** A capture that is no frontier URL of its own (robots.txt, a feed poll, a revisit) was stored: the engine sends it live as it does pages'. */
  onArchived?(capture: CaptureSummary): void;
  /**
   * Web objects a capture that is no frontier URL's committed (a recrawl round's changed page), each
   * with the page it belongs to: the engine writes them where a page's go (the CLI's objects.jsonl).
   */
  onObjects?(objects: FoundObject[]): void;
}

/** A Web object the AAH found, with the URL of the page it belongs to. */
export interface FoundObject {
  url: string;
  type: string;
  fields: Record<string, string>;
}

/**
 * Everything the stages of one crawl share: the frontier, fetcher, robots cache, WARC writer,
 * stores, trap detector, analysis and AAH state. Built once per crawl run.
 */
export class CrawlContext {
  readonly stats: CrawlStatsTracker;
  readonly sequencer = new CommitSequencer();
  /** One page's CPU work per turn of the event loop (cpu-turns.ts). */
  readonly turns: CpuTurns;
  /** Writes of items ready within a few ms share one transaction (in commit order). */
  readonly commits: GroupCommit;
  readonly traps: TrapDetector;
  /** What root-relative links resolved to on earlier pages (most pages repeat a site's menus and assets). */
  readonly references: ReferenceCache;
  /** The import maps of the documents read, for the modules they load (importMapOf). */
  readonly importMaps: ImportMapStore;
  /** The `/favicon.ico` URLs this run proposed (faviconOf): one per origin; a resumed run's first proposal finds it in the frontier. */
  private readonly favicons = new Set<string>();
  /**
   * The last robots.txt request made under each asking host's key and not yet paid for with a
   * politeness delay (askRobots takes it). Filed under the host whose robots.txt it was, even for a
   * redirect hop to another name on its IP: the request was made in that host's turn.
   */
  private readonly robotsFetched = new Map<string, KeyTiming>();
  /** The crawl's cookies as its database keeps them (null when the ICD keeps none): saved on close. */
  private cookies: StoredCookieJar | null = null;
  /** Visit fingerprints and revisit outcomes (visit–revisit captures). */
  readonly coherence: CoherenceStore;

  private constructor(
    readonly crawlId: number,
    readonly icd: Icd,
    readonly db: Database.Database,
    readonly frontier: SqliteFrontier,
    readonly writer: WarcWriter,
    readonly fetcher: Fetcher,
    /** Whether an address may be connected to (the DNS stage asks before robots.txt; the fetcher before every request). */
    readonly addressGuard: AddressGuard,
    readonly robots: RobotsCache,
    readonly store: CaptureStore,
    readonly focus: FocusAnalysis | null,
    readonly aah: AahRunner | null,
    /** A pause or stop was asked for: stages waiting for a host's turn stop waiting. */
    readonly halted: () => boolean,
    private readonly onArchived: (capture: CaptureSummary) => void,
    /** See CrawlContextOptions.onObjects. */
    readonly onObjects: (objects: FoundObject[]) => void,
  ) {
    this.stats = new CrawlStatsTracker();
    this.commits = new GroupCommit(db);
    this.coherence = new CoherenceStore(db, crawlId);
    this.traps = new TrapDetector({ maxQueryVariantsPerPath: icd.scope.maxQueryVariantsPerPath, maxDatesPerTemplate: icd.scope.maxCalendarDates });
    this.references = new ReferenceCache(icd.scope.queryHandling);
    this.importMaps = new ImportMapStore(db, crawlId);
    this.turns = new CpuTurns(icd.politeness.enabled);
    this.excludes = icd.scope.exclude;
  }

  static async open(o: CrawlContextOptions): Promise<CrawlContext> {
    const { icd } = o;
    // First: a knowledge base that cannot be used fails the start before any file is opened.
    const aah = openAah(o);
    await cutUncommittedTail(o.db, o.crawlId, o.warcDir);
    const writer = new WarcWriter({
      dir: o.warcDir,
      crawlId: crawlWarcId(o.crawlId),
      rotateBytes: icd.warc.rotateBytes,
      gzipLevel: icd.warc.gzipLevel,
      software: SOFTWARE,
      robotsPolicy: icd.politeness.respectRobots ? 'obey' : 'ignore',
      userAgent: icd.userAgent,
      isPartOf: icd.name,
      operator: icd.warc.operator || undefined,
      description: icd.description || undefined,
      dedup: new SqliteDedupLookup(o.db, o.crawlId),
      handoverWaitMs: icd.politeness.enabled ? POLITE_HANDOVER_WAIT_MS : 0,
    });
    await writer.open();
    // One jar for the crawl: pages, robots.txt, revisits and feed polls share it; a resumed crawl has its cookies back.
    const cookies = icd.cookies ? openStoredCookieJar(o.db, o.crawlId) : null;
    // As canonical URLs write them (no trailing dot), as the pages' hosts are resolved and compared.
    const seedHosts = icd.seeds.flatMap((seed) => (URL.canParse(seed) ? [listedHostName(seed)] : []));
    const addressGuard = createAddressGuard({ allowPrivateAddresses: icd.scope.allowPrivateAddresses, seedHosts, resolve: resolveHost });
    const fetcher = createFetcher({
      addressGuard,
      userAgent: icd.userAgent, limits: icd.limits, spoolDir: o.spoolDir, interrupt: o.interrupt, rejectUnauthorized: icd.limits.verifyCertificates,
      cookieJar: cookies?.jar,
      // A retry (of a page, robots.txt, a revisit or a feed poll) is made holding the host's key: it waits the host's delay.
      retryGapMs: icd.politeness.enabled ? (host, attemptMs) => politenessDelayMs(attemptMs, icd.politeness, o.frontier.robotsDelayMs(host)) : undefined,
    });
    const store = new CaptureStore(o.db, o.crawlId);
    let archive: (ex: HttpExchange, timing: FetchTiming, message: string) => Promise<void> = async () => undefined;
    let noteRobotsFetch: (askingHost: string, timing: KeyTiming) => void = () => undefined;
    let request: (url: string, askingHost: string) => Promise<RobotsRequest> = async (url) => ({ outcome: await fetcher.fetch(url), ownKey: true });
    let commitsRefused: () => boolean = () => false;
    const robots = new RobotsCache({
      userAgent: icd.userAgent,
      enabled: icd.politeness.respectRobots,
      ignoreFor: icd.politeness.ignoreRobotsFor,
      // robots.txt responses are archived too (issue 3): every hop of their redirects.
      fetchRobots: async (url, origin, hop) => {
        const askingHost = hostKeyOf(origin);
        const { outcome, ownKey } = await request(url, askingHost);
        // Ended now, as far as this thread can tell (the page's delay runs from here). A redirect to
        // another IP took its turn there, and that key's clock has it already.
        if (ownKey) noteRobotsFetch(askingHost, { lastStartAt: Date.now() - outcome.durationMs, lastDurationMs: outcome.durationMs });
        const exchange = outcome.ok ? outcome.exchange : outcome.partial;
        if (!exchange) return outcome;
        // Archiving releases a spooled body, and the cache reads it after: it gets a copy in memory.
        const forCache = await robotsBodyInMemory(exchange);
        await archive(exchange, outcome, await robotsCaptureMessage(forCache, hop));
        return outcome.ok ? { ...outcome, exchange: forCache } : { ...outcome, partial: forCache };
      },
      // A request that got nothing has no capture to stand for it: its own entry, as a page's failed fetch
      // has. Not counted among the failures (restoreStats leaves its subject out too), as an archived 5xx
      // robots.txt is not: the pages of the host fail, or are excluded, because of it, and those are counted.
      onUnanswered: (url, failure, next) =>
        store.addLog({ url, status: null, outcome: failure.reason, message: robotsUnansweredMessage(failure.message, next), size: 0, durationMs: failure.durationMs, retries: failure.retries, at: new Date(), subject: 'robots' }),
      onSitemaps: (origin, sitemaps) => queueSitemaps(origin, sitemaps),
      maxAgeMs: o.robotsMaxAgeMs,
      backoff: o.robotsBackoff,
      // Kept with the crawl (issue 3: fetched once per host per crawl, not once per run).
      answers: new SqliteRobotsAnswerStore(o.db, o.crawlId, () => !commitsRefused()),
    });
    let queueSitemaps: (origin: string, urls: string[]) => void = () => undefined;
    const focus = icd.focus.enabled ? FocusAnalysis.create(icd, storedSimilarities(o.db, o.crawlId)) : null;
    o.frontier.openCrawl(o.crawlId, crawlFrontierConfig(icd));
    const ctx = new CrawlContext(o.crawlId, icd, o.db, o.frontier, writer, fetcher, addressGuard, robots, store, focus, aah, o.halted ?? (() => false), o.onArchived ?? (() => undefined), o.onObjects ?? (() => undefined));
    ctx.cookies = cookies;
    archive = (ex, timing, message) => ctx.archiveAuxiliary(ex, { message, subject: 'robots', timing });
    noteRobotsFetch = (askingHost, timing) => void ctx.robotsFetched.set(askingHost, timing);
    request = (url, askingHost) => robotsRequest(ctx, url, askingHost);
    commitsRefused = () => ctx.sequencer.refusedAny;
    queueSitemaps = (origin, urls) => {
      if (ctx.visitSetClosed()) return;
      // Found in the origin's robots.txt (depth 0: read for the crawl's own sake, as a seed is
      // given), not on a page: the sitemaps stand at depth 1, their URLs at 2, as before.
      // At 0 hops when the origin is one of the crawl's hosts (a seed's robots.txt: its sitemaps are
      // the crawl's, wherever they are), else one out (a requisite host's robots.txt).
      const robotsTxt = robotsTxtUrlOf(origin);
      const scopeHops = hostInScope(robotsTxt, ctx.scopeInput().scope) ? 0 : 1;
      ctx.queueDiscovered(urls.map((url) => ({ url, kind: 'sitemap', anchorText: '', context: '', source: 'robots@sitemap' })), { url: robotsTxt, depth: 0, scopeHops });
    };
    ctx.restoreStats();
    seedFrontier(ctx);
    return ctx;
  }

  /** Counters of earlier runs, so a resumed crawl's figures continue where they were. */
  private restoreStats(): void {
    const captures = this.db.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(size), 0) AS bytes FROM Capture WHERE crawlId = ?').get(this.crawlId) as { n: number; bytes: number };
    this.stats.fetched = captures.n;
    this.stats.bytes = captures.bytes;
    for (const row of this.db.prepare('SELECT status / 100 AS cls, COUNT(*) AS n FROM Capture WHERE crawlId = ? GROUP BY status / 100').all(this.crawlId) as { cls: number; n: number }[]) {
      this.stats.statusClasses[`${row.cls}xx`] = row.n;
    }
    // Neither a recrawl round's entries (its failure, its recovery) nor robots.txt's (subject 'robots': one that
    // got nothing is counted in the pages it failed or excluded) are a URL's: the live counters never count them either.
    // A host given up logged one entry for all its URLs failed then (host-outages.ts): they are counted from the frontier.
    const failures = `SELECT outcome, COUNT(*) AS n FROM CrawlLogEntry WHERE crawlId = ? AND outcome NOT IN ('ok', ?, ${marksOf([...EXCLUSION_OUTCOMES, ...NOT_A_FETCH_OUTCOMES])})
      AND outcome NOT LIKE 'truncated-%' AND subject IS NULL GROUP BY outcome`;
    for (const row of this.db.prepare(failures).all(this.crawlId, HOST_UNREACHABLE, ...EXCLUSION_OUTCOMES, ...NOT_A_FETCH_OUTCOMES) as { outcome: string; n: number }[]) {
      this.stats.recordFailures(row.outcome, row.n);
    }
    this.stats.recordFailures(HOST_UNREACHABLE, this.frontier.counters(this.crawlId).failedByReason[HOST_UNREACHABLE] ?? 0);
    // The failed fetches of URLs a host's back-off put back in the queue stay in the log, but are no failures.
    for (const { reason, n } of failuresTakenBack(this.db, this.crawlId)) this.stats.recordFailures(reason, -n);
    // Exclusions the crawl log holds: pages robots.txt refused, revisits and recrawls not made (an exclude pattern added since).
    for (const row of this.db.prepare(`SELECT outcome, COUNT(*) AS n FROM CrawlLogEntry WHERE crawlId = ? AND outcome IN (${marksOf(EXCLUSION_OUTCOMES)}) GROUP BY outcome`).all(this.crawlId, ...EXCLUSION_OUTCOMES) as { outcome: string; n: number }[]) {
      this.stats.excluded += row.n;
      this.stats.excludedByReason[row.outcome] = row.n;
    }
  }

  /** The scope rules in the shape the schedule stage needs: the ICD's, with the exclude patterns added and removed since it started. */
  scopeInput(): ScopeInput {
    const rules = this.excludes === this.icd.scope.exclude ? this.icd.scope : { ...this.icd.scope, exclude: this.excludes };
    return (this.scope ??= { scope: compileScope(rules, this.icd.seeds), defaultPriority: 0.5 });
  }
  private scope: ScopeInput | null = null;
  /** The exclude patterns in force: the ICD's it started with, and those added (or removed) while this run went on (live-exclusions.ts). */
  private excludes: readonly string[];

  /** The exclude patterns the crawl applies now. */
  excludePatterns(): readonly string[] {
    return this.excludes;
  }

  /** Links found from now on that match `pattern` are out of scope, as the ICD's exclude patterns make them. */
  excludeFromNowOn(pattern: string): void {
    if (this.excludes.includes(pattern)) return;
    this.excludes = [...this.excludes, pattern];
    this.scope = null;
  }

  /** Links found from now on that match `pattern` (and no other rule) are in scope again. */
  stopExcluding(pattern: string): void {
    if (!this.excludes.includes(pattern)) return;
    this.excludes = this.excludes.filter((p) => p !== pattern);
    this.scope = null;
  }

  /**
   * Whether one of the crawl's exclude patterns in force matches `url`: a page captured before it
   * was added is not refetched by a revisit or a recrawl round (revisit-pass.ts, recrawl-round.ts).
   */
  excludedByPattern(url: string): boolean {
    return this.excludingPattern(url) !== null;
  }

  /** The first exclude pattern in force that matches `url` (as the archivist wrote it), or null. */
  excludingPattern(url: string): string | null {
    const at = this.scopeInput().scope.exclude.findIndex((re) => re.test(url));
    return at < 0 ? null : this.excludes[at]!;
  }

  /**
   * Whether a link to `url` of `kind` can still change the frontier. When links rescore the URLs
   * they find, only URLs that left the queue are out of reach; otherwise every URL the crawl knows
   * already is, except one refused for a reason a link of this kind may overturn (a requisite, an
   * extra hop: url/scope.ts mayRetakeRefused; a link at `depth` within the limit to a URL refused
   * as too deep), which the scope checks again, or one still queued at a depth greater than `depth`,
   * which waits from then on as this nearer link found it, or a page fetched deeper than `depth`
   * whose links the depth limit cut, which may be taken from here (addLinks), or one stored as a
   * requisite or a redirect that a link of another kind makes a page (a frame the site also links
   * to: frontier/crawl-state.ts EMBED_KINDS). An in-memory lookup, never a query.
   */
  linkMayMatter(url: string, kind: string, depth: number, rescoring: boolean): boolean {
    if (this.frontier.refused(this.crawlId, url)) {
      return (depth <= this.icd.scope.maxDepth && this.frontier.refusedTooDeep(this.crawlId, url)) || mayRetakeRefused(kind, this.icd.scope);
    }
    return (
      !(rescoring ? this.frontier.settled(this.crawlId, url) : this.frontier.knows(this.crawlId, url)) ||
      this.frontier.queuedDeeper(this.crawlId, url, depth) ||
      this.frontier.linksCutDeeper(this.crawlId, url, depth) ||
      (!EMBED_KINDS.has(kind) && this.frontier.storedAsEmbed(this.crawlId, url))
    );
  }

  /**
   * Adds planned links to the frontier, as every crawler path that queues links does. When they
   * find fetched pages nearer the seeds whose links the depth limit cut
   * (AddResult.cutLinksFoundNearer), those links are planned again as out-links of those pages at
   * their nearer depth and with the embed hops (and requisite redirects) of the nearer way, as the
   * schedule stage plans a page's links, and the ones the scope takes now are added: each was
   * refused as too deep, so it is queued as when a page near enough links to it (the frontier's
   * retake of a refused URL). Those it still refuses stay excluded as they were.
   */
  addLinks(candidates: Candidate[], opts?: AddOptions): AddResult {
    const result = this.frontier.add(this.crawlId, candidates, opts);
    for (const page of result.cutLinksFoundNearer ?? []) {
      const links = page.links.map((l) => ({ url: l.url, kind: l.kind, anchorText: '', context: '', source: 'depth-limit@nearer' }));
      const item = {
        url: page.url, host: page.host, depth: page.depth, priority: 0, lease: null, scopeHops: page.scopeHops, links,
        embedHops: this.embedHopsOf(page), requisiteRedirects: this.requisiteRedirectsOf(page, links),
      };
      this.addLinks(planOutLinks(item, this.scopeInput(), this.traps).candidates);
    }
    return result;
  }

  /**
   * For a page whose links include a redirect (its Location): how many redirects separate it from
   * the page requisite its redirect chain began at (url/scope.ts requisiteRedirectsOf), so the
   * redirect is taken as a requisite's; null otherwise. `page` is its frontier entry (kind, the
   * URL it was found on). The main crawl's schedule stage and a recrawl round both plan with it.
   */
  requisiteRedirectsOf(page: { kind: string; viaUrl: string | null } | null | undefined, links: readonly OutLink[]): number | null {
    if (!page || !links.some((l) => l.kind === 'redirect')) return null;
    return requisiteRedirectsOf(page.kind, page.viaUrl, (url) => this.frontier.lookup(this.crawlId, url));
  }

  /**
   * How many embed hops lead to a fetched page from the page its chain of requisites hangs from
   * (url/scope.ts embedHopsOf), so its requisites are taken past the depth limit within
   * MAX_EMBED_HOPS; null when its frontier entry is unknown. Most pages cost no lookup.
   */
  embedHopsOf(page: { kind: string; viaUrl: string | null } | null | undefined): number | null {
    return page ? embedHopsOf(page.kind, page.viaUrl, (url) => this.frontier.lookup(this.crawlId, url)) : null;
  }

  /**
   * The `/favicon.ico` of an HTML page's origin as its requisite (extract/favicon.ts), the first
   * time this run captures a page of that origin; null after, when the ICD's scope.includeFavicon
   * is off, or for the document of a frame or iframe, whose icon no browser asks for.
   */
  faviconOf(page: { url: string; lease: { kind: string; viaUrl: string | null } | null }): OutLink | null {
    if (!this.icd.scope.includeFavicon || (this.embedHopsOf(page.lease) ?? 0) > 0) return null;
    const link = faviconLink(page.url, { queryHandling: this.icd.scope.queryHandling });
    if (!link || this.favicons.has(link.url)) return null;
    this.favicons.add(link.url);
    return link;
  }

  /**
   * The import map of the document whose module graph the script at `script` (its frontier entry:
   * kind, the URL it was found on) is in (url/scope.ts moduleDocumentOf), for its bare specifiers;
   * null when it has none or the script hangs from no document.
   */
  importMapOf(script: { kind: string; viaUrl: string | null } | null | undefined): ResolvedImportMap | null {
    const document = script ? moduleDocumentOf(script.kind, script.viaUrl, (url) => this.frontier.lookup(this.crawlId, url)) : null;
    return document === null ? null : this.importMaps.of(document);
  }

  /** Resolves a URL's host (cached) so its politeness key is the IP address. */
  resolveHost(url: string): Promise<{ ip: string } | { error: string }> {
    return resolveHost(new URL(url).hostname);
  }

  /**
   * Asks robots.txt about `url` of `host` (the cache fetches it when this run has not, or not
   * today) and records the host's Crawl-delay. `fetched`: the timing of the last request of the
   * host's robots.txt (a redirect on the host or to another name on its IP included) made
   * meanwhile, if one was — a request in the host's turn, which the next one waits its delay after.
   */
  async askRobots(url: string, host: string): Promise<{ verdict: RobotsVerdict; fetched: KeyTiming | null }> {
    const verdict = await this.robots.check(url).catch((err: unknown) => {
      // Dropped when the check threw too: a later ask of the host must not take it for its own.
      this.takeRobotsFetch(host);
      throw err;
    });
    if (verdict.crawlDelayMs !== undefined) this.frontier.setRobotsDelay(host, verdict.crawlDelayMs);
    return { verdict, fetched: this.takeRobotsFetch(host) };
  }

  /** The robots.txt request made under `host`'s key and not yet paid for (robotsFetched), without taking it. */
  pendingRobotsFetch(host: string): KeyTiming | null {
    return this.robotsFetched.get(host) ?? null;
  }

  private takeRobotsFetch(host: string): KeyTiming | null {
    const timing = this.robotsFetched.get(host) ?? null;
    this.robotsFetched.delete(host);
    return timing;
  }

  /**
   * Archives an exchange that is not a frontier URL of its own (robots.txt, polled feeds): its records and
   * capture row go through the same ordered commit as pages. `entry`: its crawl-log message; `failure`: what
   * it was fetched for failed (a feed poll whose body cannot be read): the crawl-log outcome, counted among
   * the failures (commitArchived); `subject`: 'robots' for a robots.txt response, no URL of the crawl;
   * `timing`: the fetch's duration and retries, for its capture row and crawl-log entry.
   */
  async archiveAuxiliary(ex: HttpExchange, entry: { message: string; failure?: FailureReason; subject?: LogSubject; timing?: FetchTiming }): Promise<void> {
    try {
      // After the requests due: 200 robots.txt answered at once were archived before the next read.
      await this.turns.take();
      await this.commitArchived(ex, () => this.writer.writeCapture(ex), { payloadDigest: ex.payloadDigest, depth: 0, ...entry });
    } finally {
      await releaseBody(ex.body).catch(() => undefined);
    }
  }

  /**
   * Writes an exchange's records (`write`) and commits its capture row and crawl-log entry in WARC
   * order (a sequencer ticket taken as the records are submitted), as commitItem does for pages.
   * `row.alongside` runs in the same transaction: when it throws, the capture is not acknowledged
   * (its records are cut at the next start, as a refused commit's are); it does not run when the
   * capture is not acknowledged. `row.failure`: the fetch failed with this reason (FailureReason: a
   * 5xx after the retries, a cut connection, a decompression bomb) though what it received is
   * archived: the crawl-log outcome and a failure counted, as commitItem logs a page's; else
   * `truncated-length` for a body over the size cap, else `ok` (archivedOutcome). Resolves true
   * when the capture was committed and is durable, false when it was not acknowledged. `row.title`:
   * the page's title, for its capture row (a revisit's full response).
   */
  async commitArchived(ex: HttpExchange, write: () => Promise<CaptureLocation>, row: { payloadDigest: string; depth: number; message: string; failure?: FailureReason; subject?: LogSubject; timing?: FetchTiming; alongside?: () => void; title?: string | null }): Promise<boolean> {
    const ticket = this.sequencer.ticket();
    let settled = false;
    try {
      const location = await write();
      await this.sequencer.turn(ticket);
      const size = ex.body.kind === 'memory' ? ex.body.bytes.length : ex.body.size;
      // Queued into the next group commit; the next ticket may queue right behind it (holding the
      // line until the commit was durable made 200 robots.txt captures take 1.6 s, 8 ms each).
      let stored: CaptureSummary | null = null;
      const mime = mediaTypeOf(ex.headers['content-type']);
      const committed = commitInOrder(this.sequencer, this.commits, ticket, () => {
        const id = this.store.addCapture({
          url: ex.url, status: ex.status, mime, size,
          payloadDigest: row.payloadDigest, truncated: ex.truncated, recordType: location.type === 'revisit' ? 'revisit' : 'response', warcFile: location.filename,
          warcOffset: location.offset, warcLength: location.length, warcRecordId: location.recordId, depth: row.depth, score: null,
          scoreBreakdown: null, similarity: null, title: row.title ?? null, fetchedAt: ex.date, durationMs: row.timing?.durationMs ?? 0,
        });
        stored = { id, url: ex.url, status: ex.status, mime, size, fetchedAt: ex.date.toISOString(), score: null, title: row.title ?? null, truncated: ex.truncated };
        this.store.addLog({ url: ex.url, status: ex.status, outcome: archivedOutcome(row.failure, ex.truncated), message: row.message, size, durationMs: row.timing?.durationMs ?? 0, retries: row.timing?.retries ?? 0, at: new Date(), subject: row.subject });
        // What the capture was made for (a recrawl round's page state): committed with it or not at all.
        row.alongside?.();
        // Counted as every capture is, so the live counters agree with the captures a resumed crawl counts.
        this.stats.recordFetch(ex.status, size);
        if (row.failure) this.stats.recordFailure(row.failure);
      }, () => undefined);
      this.sequencer.settle(ticket);
      settled = true;
      await committed;
      // Durable (a job that threw or a group rolled back rejects): see WarcWriter.acknowledge.
      if (!stored) return false;
      this.writer.acknowledge(location.filename);
      this.onArchived(stored);
      return true;
    } finally {
      if (!settled) {
        await this.sequencer.turn(ticket).catch(() => undefined);
        this.sequencer.settle(ticket);
      }
    }
  }

  /**
   * Whether the crawl visits no more URLs: a visit–revisit capture (without feeds or recrawls) once
   * its revisit pass has begun. Its reference time is fixed then, and the engine finishes after
   * the pass, so a URL queued meanwhile — a Sitemap: line of robots.txt read again for a revisit —
   * would stay queued in a finished crawl, and visited it would fall outside the capture. Such
   * lines are not queued; the robots.txt capture keeps them. Incremental crawls go on visiting.
   */
  visitSetClosed(): boolean {
    return visitSetCloses(this.icd) && this.coherence.revisitsBegun();
  }

  /**
   * Queues links found outside a page's pipeline, through scope: a robots.txt's Sitemap: lines, a
   * feed's new articles. `foundOn` is where they were found (the robots.txt, the feed), the URL the
   * frontier records as their way in, and its depth; it stands in the frontier for none of them
   * (robots.txt and feeds are not frontier URLs), so "Look up a URL" ends their path there
   * (entryPointKind). It counts as in the scope (the crawl's own requests, not links followed
   * out of it).
   */
  queueDiscovered(links: OutLink[], foundOn: { url: string; depth: number; scopeHops: number }): void {
    const plan = planOutLinks({ url: foundOn.url, host: '', depth: foundOn.depth, priority: 0, lease: null, scopeHops: foundOn.scopeHops, links }, this.scopeInput(), this.traps);
    this.addLinks(plan.candidates);
    this.frontier.exclude(this.crawlId, plan.rejected);
  }

  relevanceSnapshot(): unknown {
    return this.focus?.snapshot() ?? null;
  }

  /**
   * Closes each part, all of them even when one fails (a full disk at the WARC writer's close), then
   * throws the first failure. `abandonWarc`: the WARC files are left as a crash leaves them (WarcWriter.abandon).
   */
  async close({ abandonWarc = false } = {}): Promise<void> {
    this.cookies?.close();
    const closed = await Promise.allSettled([this.focus?.close(), abandonWarc ? this.writer.abandon() : this.writer.close(), this.fetcher.close()]);
    const failed = closed.find((c) => c.status === 'rejected');
    if (failed) throw failed.reason;
  }
}

/** How much of a robots.txt spooled to disk is read for its rules (parsing reads at most 512 KiB of the decoded text). */
const ROBOTS_READ_BYTES = 4 * 1024 * 1024;

/**
 * The exchange with a spooled body's first bytes in memory (a body already there as it is). One
 * that cannot be read stays as it is: the cache, failing to read it, treats robots.txt as unreachable.
 */
async function robotsBodyInMemory(ex: HttpExchange): Promise<HttpExchange> {
  if (ex.body.kind !== 'file') return ex;
  const length = Math.min(ex.body.size, ROBOTS_READ_BYTES);
  const fh = await open(ex.body.path, 'r').catch(() => null);
  if (!fh) return ex;
  try {
    const { buffer, bytesRead } = await fh.read(Buffer.alloc(length), 0, length, 0);
    return { ...ex, body: { kind: 'memory', bytes: buffer.subarray(0, bytesRead) } };
  } catch {
    return ex;
  } finally {
    await fh.close();
  }
}

/**
 * The crawl's AAH, when its ICD turns it on: with the crawl's copy of a cockpit knowledge base,
 * else with the file at `kbPath` if there is one (none: no AAH, as before copies were taken).
 * A copy that does not parse throws, naming it and its errors' lines: the crawl fails to start.
 */
function openAah(o: CrawlContextOptions): AahRunner | null {
  if (!o.icd.aah.enabled) return null;
  const engine = o.aahBudgetMs ? { maxAnalysisMs: o.aahBudgetMs } : undefined;
  const create = (xml: string) => AahRunner.create(xml, o.icd.scope.queryHandling, new AdaptedRuleStore(o.db, o.crawlId), { engine });
  if (o.knowledgeBase) {
    try {
      return create(o.knowledgeBase.xml);
    } catch (err) {
      throw new Error(`The crawl's copy of the knowledge base “${o.knowledgeBase.name}” (taken when it was created) cannot be used: ${(err as Error).message}`);
    }
  }
  return o.kbPath && existsSync(o.kbPath) ? create(readFileSync(o.kbPath, 'utf8')) : null;
}
