import { routeId } from '../../../lib/server/route-id';
import { WebObjectsBrowser } from './web-objects-browser';

export const metadata = { title: 'Web objects · Tidemark' };

export default async function WebObjectsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <WebObjectsBrowser crawlId={routeId(id)} />;
}
