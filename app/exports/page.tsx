import { Suspense } from 'react';
import { ExportsView } from './exports-view';

export const metadata = { title: 'Exports · Tidemark' };

export default function ExportsPage() {
  return (
    <Suspense>
      <ExportsView />
    </Suspense>
  );
}
