import { z } from 'zod';
import { KB_MAX_CHARS } from '../../../../worker/aah/kb-xml-reader';
import { testKnowledgeBase } from '../../../../worker/aah/tester';
import { icdSchema } from '../../../../worker/icd/schema';
import { canonicalize } from '../../../../worker/url';
import { HttpError, apiRoute, readJson } from '../../../lib/server/handler';

export const dynamic = 'force-dynamic';

const body = z.object({
  xml: z.string().max(KB_MAX_CHARS, 'The knowledge base is larger than 5 MB'),
  url: z.string().url(),
  /** Pasted HTML; without it, the page as captured by `crawlId` is used. */
  html: z.string().max(5_000_000).optional(),
  crawlId: z.number().int().positive().optional(),
});

/** POST /api/aah/test [design] → application, level, links per navigation action, objects per extraction action. */
export const POST = apiRoute('design', async ({ req, prisma }) => {
  const input = await readJson(req, body);
  if (input.html !== undefined) return testKnowledgeBase(input.xml, { url: input.url, html: input.html });
  if (!input.crawlId) throw new HttpError(400, 'Give the page: paste its HTML or name a crawl that captured the URL');
  // Captures are stored under the crawl's canonical URLs: the URL as typed (no trailing slash, a
  // fragment, a capital in the host) is looked up in that form too.
  const crawl = await prisma.crawl.findUnique({ where: { id: input.crawlId }, select: { definition: true } });
  // A deleted crawl's captures stay until its background deletion reaches them, its WARC files gone.
  if (!crawl) throw new HttpError(404, `There is no crawl ${input.crawlId}`);
  // A copy the schema now refuses (an older crawl's) still has its captures: canonical as 'keep' then.
  const stored = icdSchema.safeParse(JSON.parse(crawl.definition));
  const queryHandling = stored.success ? stored.data.scope.queryHandling : undefined;
  const urls = [...new Set([input.url, canonicalize(input.url, undefined, { queryHandling }) ?? input.url])];
  const capture = await prisma.capture.findFirst({ where: { crawlId: input.crawlId, url: { in: urls } }, orderBy: { id: 'desc' } });
  if (!capture) throw new HttpError(404, `Crawl ${input.crawlId} has no capture of ${input.url}`);
  const { readCapturedPage } = await import('../../../lib/server/captured-html');
  const own = await readCapturedPage(input.crawlId, capture.warcFile, capture.warcOffset);
  // A revisit's record holds its own HTTP head but no payload: the page is the response it repeats (the crawl's first with its payload digest).
  const repeated = capture.recordType === 'revisit' && capture.payloadDigest
    ? await prisma.capture.findFirst({ where: { crawlId: input.crawlId, payloadDigest: capture.payloadDigest, recordType: 'response' }, orderBy: { id: 'asc' } })
    : null;
  const html = repeated ? (await readCapturedPage(input.crawlId, repeated.warcFile, repeated.warcOffset)).html : own.html;
  const { contentType, headers } = own;
  // A capture a crawl would not analyse (no HTML page: an image, JSON, a redirect, an error page) is not analysed here either.
  return testKnowledgeBase(input.xml, { url: input.url, html, response: { status: capture.status, contentType, headers } });
});
