import type Database from 'better-sqlite3';
import type { PrismaClient } from '../../../../../worker/store/prisma';
import { apiRoute } from '../../../../lib/server/handler';
import { existingCrawlId } from '../../../../lib/server/crawl-views';
import { services } from '../../../../lib/server/services';
import { crawlWarcDir } from '../../../../../worker/store/data-layout';

/** What the coherence routes need: the crawl (which exists), the request and where its WARC files are. */
export interface CoherenceRouteContext {
  crawlId: number;
  request: Request;
  /** The SQLite driver, for the reads of every page of a capture (see coherenceReport). */
  db: Database.Database;
  prisma: PrismaClient;
  /** Where the crawl's WARC files and certificate are. */
  warcDir: string;
}

/** A GET handler under `/api/crawls/:id/coherence` [view]: the common wrapper plus a crawl lookup. */
export function coherenceRoute(handler: (ctx: CoherenceRouteContext) => Promise<unknown>) {
  return apiRoute<{ id: string }>('view', async ({ req, params, db, prisma }) => {
    const crawlId = await existingCrawlId(prisma, params.id);
    return handler({ crawlId, request: req, db, prisma, warcDir: crawlWarcDir(services().env.dataDir, crawlId) });
  });
}
