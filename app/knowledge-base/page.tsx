import { Suspense } from 'react';
import { KnowledgeBaseView } from './knowledge-base-view';

export const metadata = { title: 'Knowledge base · Tidemark' };

export default function KnowledgeBasePage() {
  return (
    <Suspense>
      <KnowledgeBaseView />
    </Suspense>
  );
}
