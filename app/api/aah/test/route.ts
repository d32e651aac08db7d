import { z } from 'zod';
import { KB_MAX_CHARS } from '../../../../worker/aah/kb-xml-reader';
import { testKnowledgeBase } from '../../../../worker/aah/tester';
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
  let html = input.html;
  if (html === undefined) {
    if (!input.crawlId) throw new HttpError(400, 'Give the page: paste its HTML or name a crawl that captured the URL');
    const capture = await prisma.capture.findFirst({ where: { crawlId: input.crawlId, url: input.url }, orderBy: { id: 'desc' } });
    if (!capture) throw new HttpError(404, `Crawl ${input.crawlId} has no capture of ${input.url}`);
    const { readCapturedHtml } = await import('../../../lib/server/captured-html');
    html = await readCapturedHtml(input.crawlId, capture.warcFile, capture.warcOffset);
  }
  return testKnowledgeBase(input.xml, { url: input.url, html });
});
