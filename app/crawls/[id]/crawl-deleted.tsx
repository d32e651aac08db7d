import Link from 'next/link';

/**
 * What a page open on a crawl shows once the crawl is deleted, rather than the crawl as it was
 * (finished, live, its counters, a Delete answering "Not found."). `here`: deleted from this page,
 * which is on its way to the crawls list.
 */
export function CrawlDeleted({ crawlId, name, here }: { crawlId: number; name: string; here: boolean }) {
  return (
    <section className="card max-w-xl space-y-3" data-testid="crawl-deleted">
      <h1 className="text-xl font-semibold"><bdi>{name}</bdi> <span className="text-base font-normal text-slate-500">#{crawlId}</span></h1>
      <p role="alert" className="text-slate-700">
        {here
          ? 'Deleted, with its captures and WARC files. Opening the crawls…'
          : 'This crawl has been deleted (in another tab, or by someone else), with its captures and WARC files.'}
      </p>
      <p><Link href="/crawls" className="link">The crawls</Link></p>
    </section>
  );
}
