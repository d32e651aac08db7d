'use client';
import Link from 'next/link';
import { ErrorMessage } from '../components/error-message';
import { formatDate, useIcds } from '../lib/client/queries';
import { useStartCrawlAndOpen } from '../lib/client/start-crawl';
import { useCan } from '../lib/client/session';
import { formatInZone } from '../lib/zoned-time';

/** The crawl definitions (ICDs): edit one, or start a crawl of it. */
export function IcdList() {
  const icds = useIcds();
  const start = useStartCrawlAndOpen();
  const mayDesign = useCan('design');
  const mayRun = useCan('run');
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-4">
        <h1 className="text-2xl font-bold">Crawl definitions</h1>
        {mayDesign && <Link href="/icds/new" className="btn btn-primary">New crawl definition</Link>}
      </div>
      <ErrorMessage error={icds.error ?? start.error} />
      {icds.data && (
        icds.data.length === 0 ? (
          <p className="text-slate-600">No crawl definition yet.</p>
        ) : (
          <div className="card overflow-x-auto p-0">
            <table className="table-base" data-testid="icds-table">
              <caption className="sr-only">Crawl definitions</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Updated</th>
                  <th scope="col">Schedule</th>
                  <th scope="col"><span className="sr-only">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                {icds.data.map((icd) => (
                  <tr key={icd.id} data-testid="icd-row">
                    <td><Link className="link" href={`/icds/${icd.id}`}><bdi>{icd.name}</bdi></Link></td>
                    <td>{formatDate(icd.updatedAt)}</td>
                    <td data-testid="icd-schedule">
                      {icd.schedule ? (
                        <>
                          {icd.schedule.description}
                          {/* In the schedule's own zone, named, as its description is: the browser's local time said nothing of its zone. */}
                          {icd.schedule.nextRunAt && <span className="block text-xs text-slate-600">next {formatInZone(icd.schedule.nextRunAt, icd.schedule.timeZone)}</span>}
                        </>
                      ) : '–'}
                    </td>
                    <td>
                      {mayRun && (
                        <button type="button" className="btn" disabled={start.busy} onClick={() => start.start(icd.id)} aria-label={`Start a crawl of ${icd.name}`}>
                          {start.icdId === icd.id ? 'Starting…' : 'Start'}
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      )}
    </div>
  );
}
