import Link from 'next/link';

export const metadata = { title: 'Not found · Tidemark' };

/** The 404 page: for a URL of no page, or an id that names nothing (e.g. /crawls/abc). */
export default function NotFound() {
  return (
    <section className="card max-w-xl space-y-3">
      <h1 className="text-xl font-semibold">Not found</h1>
      <p className="text-slate-700">There is no page at this address: the crawl or definition may have been deleted, or the link is mistyped.</p>
      <p className="flex gap-4">
        <Link href="/crawls" className="link">The crawls</Link>
        <Link href="/icds" className="link">The crawl definitions</Link>
      </p>
    </section>
  );
}
