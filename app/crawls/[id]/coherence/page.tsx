import { routeId } from '../../../lib/server/route-id';
import { CoherenceView } from './coherence-view';

/** Coherence view of a crawl: discovery tree coloured by defect, summary, change rates, diffs. */
export default async function CoherencePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <CoherenceView crawlId={routeId(id)} />;
}
