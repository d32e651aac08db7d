import type { HttpExchange } from '../capture';
import { latestObjectsOf } from '../store/web-object-history';
import type { RecrawlCheck } from './aah-runner';
import type { CrawlContext } from './crawl-context';
import type { OutLink } from './stage';
import { applyNavigationVerdict } from './stages/aah-stage';

/**
 * The AAH on a recrawled HTML page (scheduled recrawl rounds, worker/crawler/recrawl-round.ts):
 * its navigation verdict is applied to the page's links as on a first visit, and its Web
 * objects are compared with those stored from the page's previous capture, which tells a
 * template change (`structure-changed`) from a content change. Null when the crawl has no AAH.
 */
export function aahOnRecrawl(ctx: CrawlContext, ex: HttpExchange, html: Buffer, links: OutLink[]): RecrawlCheck | null {
  if (!ctx.aah) return null;
  const url = ex.url;
  const check = ctx.aah.recrawl({ url, host: new URL(url).host, status: ex.status, headers: ex.headers, html }, latestObjectsOf(ctx.db, ctx.crawlId, url));
  if (check.verdict) applyNavigationVerdict(links, check.verdict);
  return check;
}

/**
 * Stores a recrawled page's Web objects as a first capture's are: JSON metadata records in the
 * WARC and WebObject rows tied to the page's new capture (call after the capture is committed).
 */
export async function storeRecrawlObjects(ctx: CrawlContext, url: string, check: RecrawlCheck | null): Promise<void> {
  const objects = check?.verdict?.objects ?? [];
  if (!objects.length) return;
  // Objects with a `url` are an earlier page's (an adapted rule adopted on this one).
  await Promise.all(objects.map(({ url: source = url, ...webObject }) => ctx.writer.writeMetadata(source, { webObject })));
  ctx.db.transaction(() => {
    for (const { url: source = url, ...o } of objects) {
      ctx.store.addObject({ captureId: ctx.store.latestCaptureId(source), url: source, host: new URL(source).host, type: o.type, application: o.application, rule: o.rule, fields: o.fields });
    }
  })();
}
