import { IcdList } from './icd-list';

export const metadata = { title: 'Crawl definitions · Tidemark' };

export default function IcdsPage() {
  return <IcdList />;
}
