/**
 * Entry of the extraction thread (extract-client.ts starts it): parses each response for its links
 * as the crawl's thread would (extractFromResponse), in the order they arrive.
 */
import { extractFromResponse } from '../extract';
import { ReferenceCache, type QueryHandling } from '../url';
import { packExtraction, type ExtractJob, type PackedExtraction } from './extract-job';
import { serveJobs } from './job-thread';

// One cache of root-relative references per query handling: one thread serves every crawl of the process.
const references = new Map<QueryHandling, ReferenceCache>();
function referencesFor(queryHandling: QueryHandling): ReferenceCache {
  let cache = references.get(queryHandling);
  if (!cache) references.set(queryHandling, (cache = new ReferenceCache(queryHandling)));
  return cache;
}

serveJobs<ExtractJob, PackedExtraction>((job) => {
  const body = Buffer.from(job.body.buffer, job.body.byteOffset, job.body.byteLength);
  const result = extractFromResponse({ ...job, body, text: false, references: referencesFor(job.queryHandling) });
  // Only focused analysis reads the decoded page and its resolutions, and focused crawls parse on their own thread.
  delete result.htmlText;
  delete result.resolved;
  return { result: packExtraction(result) };
});
