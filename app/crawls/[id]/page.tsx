import { routeId } from '../../lib/server/route-id';
import { CrawlDetailView } from './crawl-detail';

export const metadata = { title: 'Crawl · Tidemark' };

/** One crawl, live: counters, throughput and status charts, captures, relevance. */
export default async function CrawlPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <CrawlDetailView crawlId={routeId(id)} />;
}
