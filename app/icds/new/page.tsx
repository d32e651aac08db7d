import { IcdEditor } from '../icd-editor';

export const metadata = { title: 'New crawl definition · Tidemark' };

export default function NewIcdPage() {
  return <IcdEditor id={null} />;
}
