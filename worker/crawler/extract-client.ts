import { availableParallelism } from 'node:os';
import type { ResponseExtraction, ResponseInput } from '../extract';
import { jobBody, unpackExtraction, type ExtractJob, type PackedExtraction } from './extract-job';
import { JobThread, threadBootSource } from './job-thread';

/**
 * The crawl's side of the extraction thread. Parsing a page for its links is a third of the CPU the
 * crawl's thread spends on it (the throughput benchmark's profile, 2026-11-29); on a thread of its
 * own it overlaps with fetching, committing and the next page's work. One thread serves every crawl
 * of the process (the server's worker runs several), and it starts only once the process has
 * parsed EXTRACT_THREAD_AFTER pages: a crawl of a few pages ends before a thread would repay its start.
 *
 * TIDEMARK_EXTRACT_THREAD=0 keeps every parse on the crawl's thread, =1 starts the thread at the first
 * page. With one core there is no thread. A thread that fails to start or dies is reported once, and
 * the crawl's thread parses from then on; a page the thread could not parse is parsed here again,
 * so it fails (or not) as it would have.
 */
export const EXTRACT_THREAD_AFTER = 100;

/**
 * Pages waiting for the thread past which the next is parsed here: when the thread falls behind
 * (a run of large pages, another process on its core) the crawl's thread shares the parsing
 * rather than waiting with its fetch slots held.
 */
export const EXTRACT_THREAD_MAX_WAITING = 8;

let thread: JobThread<ExtractJob, PackedExtraction> | null = null;
let parsedHere = 0;
let reported = false;

/**
 * The thread to give the next page to, or null to parse it here. Pages are parsed here while the
 * thread starts (~0.1–0.5 s): given to it then, they would hold every fetch slot until it ran.
 */
async function threadForNextPage(): Promise<JobThread<ExtractJob, PackedExtraction> | null> {
  const setting = process.env.TIDEMARK_EXTRACT_THREAD;
  if (!thread) {
    if (setting === '0' || availableParallelism() < 2) return null;
    if (setting !== '1' && parsedHere++ < EXTRACT_THREAD_AFTER) return null;
    const source = threadBootSource('TIDEMARK_EXTRACT_THREAD_ENTRY', new URL('./extract-thread.ts', import.meta.url).href);
    thread = new JobThread('extraction thread', source, null);
  }
  // =1 (tests): every page on the thread, from the first.
  if (setting === '1') await thread.started;
  reportFailure();
  return thread.ready && (setting === '1' || thread.waiting < EXTRACT_THREAD_MAX_WAITING) ? thread : null;
}

/**
 * extractFromResponse(input) on the extraction thread, or null when the caller is to parse the
 * page itself: no thread (yet), or the thread could not. Texts are never collected (`text: false`),
 * nor the decoded page and its resolutions.
 */
export async function extractOnThread(input: Omit<ResponseInput, 'text' | 'references'>): Promise<ResponseExtraction | null> {
  const t = await threadForNextPage();
  if (!t) return null;
  const body = jobBody(input.body);
  const job: ExtractJob = {
    url: input.url, status: input.status, headers: input.headers, body, truncated: input.truncated ?? false,
    maxDecodedBytes: input.maxDecodedBytes, queryHandling: input.queryHandling ?? 'keep',
  };
  try {
    return unpackExtraction(await t.run(job, [body.buffer]));
  } catch {
    reportFailure();
    return null;
  }
}

/** A thread that failed (to start, or later) is reported once. */
function reportFailure(): void {
  if (!thread?.failed || reported) return;
  reported = true;
  console.error(`${thread.failed.message}; pages are parsed on the crawl's thread from now on`);
}
