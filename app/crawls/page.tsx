import { Suspense } from 'react';
import { CrawlsList } from './crawls-list';

export const metadata = { title: 'Crawls · Tidemark' };

export default function CrawlsPage() {
  return (
    <Suspense>
      <CrawlsList />
    </Suspense>
  );
}
