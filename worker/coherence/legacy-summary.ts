import { NO_PAGE_REVISITED, type CoherenceCertificate, type CoherenceSummary } from './metrics';

/**
 * A summary as the cockpit shows and serves it. Before stop 35 a run over no page was summarised as
 * coherence 1 and blur 0, a perfect capture of nothing; such summaries stay as they were stored (in
 * CoherenceRun, in certificates beside the WARC files and hard-linked into exports, whose checksums
 * they must keep) and are read as a new one is written: null, with the reason. Others are returned
 * as they are.
 */
export function summaryAsRead(summary: CoherenceSummary): CoherenceSummary {
  if (summary.pages !== 0 || (summary.coherence === null && summary.blur === null)) return summary;
  return { ...summary, coherence: null, blur: null, unmeasured: { coherence: NO_PAGE_REVISITED, blur: NO_PAGE_REVISITED } };
}

/**
 * A stored certificate's text as the cockpit serves it: an old one of a run over no page with its
 * summary read by summaryAsRead (the file on disk is not changed); any other text byte for byte.
 */
export function certificateAsServed(text: string): string {
  let certificate: CoherenceCertificate;
  try {
    certificate = JSON.parse(text) as CoherenceCertificate;
  } catch {
    return text;
  }
  const summary = certificate?.summary;
  if (typeof summary !== 'object' || summary === null || typeof summary.pages !== 'number') return text;
  const read = summaryAsRead(summary);
  return read === summary ? text : JSON.stringify({ ...certificate, summary: read }, null, 2) + '\n';
}
