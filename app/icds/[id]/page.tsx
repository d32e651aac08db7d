import { routeId } from '../../lib/server/route-id';
import { IcdEditor } from '../icd-editor';

export const metadata = { title: 'Crawl definition · Tidemark' };

export default async function EditIcdPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <IcdEditor id={routeId(id)} />;
}
