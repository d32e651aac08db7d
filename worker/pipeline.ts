/**
 * The crawl of one URL, declared once (CONVENTIONS.md): every stage has the same contract,
 * `(item, ctx) => StageResult`, and lives with its own code. A reader finds the whole crawl here.
 *
 *   dns        — resolve the host: its IP is the politeness key, for robots.txt too
 *   robots     — preconditions: robots.txt allows it (fetching and archiving robots.txt first)
 *   fetch      — one HTTP exchange within limits and retries
 *   extract    — out-links with anchor text and context, text, sitemaps, feeds
 *   coherence  — visit fingerprint of HTML pages (visit–revisit captures; revisits follow the crawl)
 *   aah        — web application, page level, links to follow, Web objects to keep
 *   analyze    — focused-crawling scores per out-link
 *   schedule   — scope, traps, budgets → frontier candidates with priorities (a large sitemap's
 *                queued ahead here, before the page holds a place in WARC order)
 *   warc       — request + response (or revisit) + out-links metadata, Web objects, CDXJ line
 *
 * The engine then commits the item in one transaction (frontier state, new URLs, capture row,
 * crawl-log entry, Web objects) in WARC order: see crawler/commit-item.ts.
 */
import type { CrawlItem, CrawlContext, Stage } from './crawler/stage';
import { dnsStage } from './crawler/stages/dns-stage';
import { robotsStage } from './crawler/stages/robots-stage';
import { fetchStage } from './crawler/stages/fetch-stage';
import { warcStage } from './crawler/stages/warc-stage';
import { extractStage } from './crawler/stages/extract-stage';
import { coherenceStage } from './crawler/stages/coherence-stage';
import { aahStage } from './crawler/stages/aah-stage';
import { analyzeStage } from './crawler/stages/analyze-stage';
import { scheduleStage } from './crawler/stages/schedule-stage';

export const PIPELINE: readonly Stage[] = [dnsStage, robotsStage, fetchStage, extractStage, coherenceStage, aahStage, analyzeStage, scheduleStage, warcStage];

/**
 * Runs the stages in order until one finishes or skips the item. `onFetched` is called once the
 * item has no more network work (after the fetch stage, or when it ends earlier).
 */
export async function runPipeline(item: CrawlItem, ctx: CrawlContext, onFetched?: () => void): Promise<void> {
  let hadTurn = false;
  for (const stage of PIPELINE) {
    if (stage === extractStage) onFetched?.();
    if (stage.shouldProcess && !stage.shouldProcess(item, ctx)) continue;
    if (stage.cpuTurn) {
      await ctx.turns.take(hadTurn);
      hadTurn = true;
    }
    const result = await stage.process(item, ctx);
    if (result.kind !== 'proceed') {
      item.finishedBy = { stage: stage.name, ...result };
      return;
    }
  }
}
