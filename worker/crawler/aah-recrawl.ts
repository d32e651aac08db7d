import type { HttpExchange } from '../capture';
import type { CaptureObject } from '../warc';
import { latestObjectsOf } from '../store/web-object-history';
import type { RecrawlCheck } from './aah-runner';
import type { CrawlContext, FoundObject } from './crawl-context';
import type { OutLink } from './stage';
import { applyNavigationVerdict } from './stages/aah-stage';
import { webObjectRecords } from './web-object-records';

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
  if (check.verdict) applyNavigationVerdict(links, check.verdict, ctx.icd.scope.maxOutLinksPerPage);
  return check;
}

/**
 * A recrawled page's Web objects, stored as a first capture's are (warc-stage.ts, commit-item.ts):
 * `records`, their JSON metadata records, written right behind the page's capture records; `store` their
 * WebObject rows, in the transaction that commits the page's capture (tied to it: it is the page's
 * latest then), so a commit refused or rolled back leaves none of them, and the round captures the
 * page again with its objects. `found`: each with the page it belongs to, for CrawlContext.onObjects
 * once the capture is committed. Null when there are none.
 */
export function recrawlObjects(ctx: CrawlContext, url: string, check: RecrawlCheck | null): { records: CaptureObject[]; store(): void; found: FoundObject[] } | null {
  const objects = check?.verdict?.objects ?? [];
  if (!objects.length) return null;
  return {
    found: objects.map(({ url: source = url, type, fields }) => ({ url: source, type, fields })),
    records: webObjectRecords(url, objects),
    store() {
      for (const { url: source = url, ...o } of objects) {
        ctx.store.addObject({ captureId: ctx.store.latestCaptureId(source), url: source, host: new URL(source).host, type: o.type, application: o.application, rule: o.rule, fields: o.fields });
      }
    },
  };
}
