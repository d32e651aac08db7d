import type { Icd } from '../icd/schema';
import { decodeText, pageLinkSettingsOf, type PageLinkSettings } from '../extract';
import type { PageAnalysis } from '../analyze';
import { RelevanceSeriesBuilder, type RelevanceSeries } from '../analyze/relevance-series';
import type { Frontier } from '../frontier';
import { AnalysisThread } from './analysis-client';
import { FocusBatch, type BatchRescore } from './focus-batch';
import { breakdownJsonOf, createFocusScorer, pageFromHtml, scorePage, type FocusScorer, type HtmlPage, type ScoredPage } from './focus-scorer';
import type { CrawlItem, OutLink } from './stage';

/**
 * Focused crawling inside the engine: scores each page and its out-links with the online
 * analysis modules, and keeps the relevance series the cockpit charts. In batch mode
 * (focus.batch.enabled) the out-links are still queued with their single-link scores when their
 * page is committed, but provisionally; once `bl` committed pages make a batch, every URL they link
 * to is rescored from the batch's summed evidence with the ICD's update function (focus-batch.ts).
 */
export class FocusAnalysis {
  private readonly series: RelevanceSeriesBuilder;
  /** Analyses of pages not committed yet (batch mode): they join the batch once their links are queued. */
  private readonly uncommitted = new WeakMap<CrawlItem, PageAnalysis>();
  private constructor(
    private readonly focus: Icd['focus'],
    private readonly links: PageLinkSettings,
    earlierSimilarities: readonly number[],
    private readonly batch: FocusBatch | null,
    private thread: AnalysisThread | null,
    /** Scores pages in this thread: when there is no analysis thread, or since it failed. */
    private local: FocusScorer | null,
  ) {
    this.series = new RelevanceSeriesBuilder(focus.relevanceWindow, focus.relevanceThreshold);
    for (const s of earlierSimilarities) this.series.add(s);
  }

  /**
   * `earlierSimilarities`: the crawl's stored ones, so a resumed crawl's chart goes on where it was.
   * `thread`: score pages on the analysis thread (analysis-client.ts) when the machine has the cores.
   */
  static create(icd: Pick<Icd, 'focus' | 'scope'>, earlierSimilarities: readonly number[] = [], options: { thread?: boolean } = {}): FocusAnalysis {
    const { focus } = icd;
    const links = pageLinkSettingsOf(icd.scope);
    const thread = options.thread === false ? null : AnalysisThread.start({ focus, links, keepAnalysis: focus.batch.enabled });
    const local = thread ? null : createFocusScorer(focus);
    let batch: FocusBatch | null = null;
    if (focus.batch.enabled) {
      // The batch needs the topic vector and the weights the scorer (wherever it runs) uses.
      const { config, analyzer } = local ?? createFocusScorer(focus);
      batch = new FocusBatch(config.topicVector, analyzer.moduleWeights, focus.batch.bl, config.granularityWeights);
    }
    return new FocusAnalysis(focus, links, earlierSimilarities, batch, thread, local);
  }

  /** True while pages are scored on the analysis thread. */
  get threaded(): boolean {
    return this.thread !== null;
  }

  /** True when out-links are queued provisionally and rescored when their batch closes. */
  get batchMode(): boolean {
    return this.batch !== null;
  }

  /**
   * Scores an HTML page (item.similarity) and each out-link (priority and breakdown). Links for
   * which `mayMatter` is false (the crawl knows their URL left the queue, or was refused in a way
   * a link of their kind cannot overturn) are marked unscored
   * instead: on a site crawled for a while most links are, and their scores would be thrown away.
   */
  async analyse(item: CrawlItem, mayMatter: (url: string, kind: string) => boolean = () => true): Promise<void> {
    const links: OutLink[] = [];
    for (const l of item.links ?? []) {
      if (l.excludedReason) continue;
      if (mayMatter(l.url, l.kind)) links.push(l);
      else l.unscored = true;
    }
    const { verdicts, analysis } = await this.score(item, links);
    item.similarity = verdicts.similarity;
    links.forEach((link, i) => {
      link.priority = verdicts.priorities[i];
      link.breakdown = breakdownJsonOf(verdicts, i);
      if (verdicts.excluded[i]) link.excludedReason = 'spam';
    });
    this.series.add(verdicts.similarity);
    if (this.batch && analysis) this.uncommitted.set(item, analysis);
  }

  /**
   * The item was committed (its out-links are in the frontier): in batch mode its analysis joins
   * the open batch, and a full batch is applied to the frontier. Returns the URLs rescored.
   */
  committed(item: CrawlItem, frontier: Frontier, crawlId: number): number {
    const analysis = this.uncommitted.get(item);
    if (!analysis || !this.batch) return 0;
    this.uncommitted.delete(item);
    if (!item.plan) return 0; // nothing was queued from it
    const rescores = this.batch.add(analysis);
    return rescores ? this.apply(rescores, frontier, crawlId) : 0;
  }

  /** Closes the open batch (crawl end, pause, stop) and applies it. Returns the URLs rescored. */
  closeBatch(frontier: Frontier, crawlId: number): number {
    if (!this.batch || this.batch.pending === 0) return 0;
    return this.apply(this.batch.close(), frontier, crawlId);
  }

  /**
   * URLs already fetched, in flight or never queued (out of scope) are not rescored. A database
   * error leaves the remaining URLs with their provisional scores: worse order, nothing lost.
   */
  private apply(rescores: readonly BatchRescore[], frontier: Frontier, crawlId: number): number {
    let n = 0;
    try {
      for (const r of rescores) if (frontier.rescore(crawlId, r.url, r.score, this.focus.updateFunction, r.breakdown)) n += 1;
    } catch (err) {
      console.error(`tidemark: batch rescoring stopped after ${n} URLs: ${(err as Error).message}`);
    }
    return n;
  }

  private async score(item: CrawlItem, links: readonly OutLink[]): Promise<ScoredPage> {
    if (this.thread) {
      try {
        // The page crosses to the thread now: while this waits, nothing here holds its text.
        return await this.thread.analyze(takePage(item, links));
      } catch (err) {
        // From here on pages are scored in this thread, with document frequencies learnt afresh.
        const thread = this.thread;
        if (thread) {
          console.error(`tidemark: ${(err as Error).message}; focused analysis goes on in the crawl's thread`);
          this.thread = null;
          void thread.close();
        }
      }
    }
    this.local ??= createFocusScorer(this.focus);
    return scorePage(this.local, pageFromHtml(takePage(item, links), this.links), this.batch !== null);
  }

  /** Stops the analysis thread (crawl end). */
  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = null;
    await thread?.close();
  }

  /** The relevance series so far (worker/analyze/relevance-series.ts). */
  snapshot(): RelevanceSeries {
    return this.series.snapshot();
  }
}

/**
 * The page as focused analysis reads it, taken off the item: left there, its text (and the
 * resolutions, keyed by slices of it) would live until the item's commit, copied by every
 * collection meanwhile. Taken again (the analysis thread failed with the page), the text is decoded
 * again from the body, as the extract stage did.
 */
function takePage(item: CrawlItem, links: readonly OutLink[]): HtmlPage {
  const html = item.htmlText ?? (item.html ? decodeText(item.html, item.exchange?.headers['content-type']) : '');
  const page: HtmlPage = {
    url: item.url,
    html,
    links: links.map(({ url, anchorText, context, kind, aahBonus }) => ({ url, anchorText, context, kind, aahBonus })),
    ...(item.resolved ? { resolved: item.resolved } : {}),
    ...(item.queryEncoding ? { encoding: item.queryEncoding } : {}),
  };
  item.htmlText = undefined;
  item.resolved = undefined;
  return page;
}
