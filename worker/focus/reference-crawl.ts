import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ICD_LIMITS, type Icd } from '../icd/schema';
import { bodyForParsing, createCookieJar, createFetcher, releaseBody } from '../fetch';
import { extractFromResponse, pageLinkSettingsOf } from '../extract';
import { canonicalize, checkScope, compileScope } from '../url';
import { buildTopicVector, type WeightedTerm } from '../analyze';
import { createTextAnalyzer, topTerms } from '../text';

export interface ReferenceDocument {
  url: string;
  title: string;
  words: number;
}

export interface ReferenceCrawlResult {
  documents: ReferenceDocument[];
  /** Most representative terms of the topic vector, for the archivist's review. */
  topTerms: WeightedTerm[];
  /**
   * The topic vector (term → weight), ready for `focus.topicTerms`: its ICD_LIMITS.topicTerms
   * strongest terms, so the result always saves (a large reference crawl has more distinct terms).
   */
  topicTerms: Record<string, number>;
  failures: { url: string; reason: string }[];
}

/** Where a reference crawl is, after each URL it tried. */
export interface ReferenceCrawlProgress {
  /** URLs tried so far (pages and failures). */
  fetched: number;
  /** HTML pages kept as reference documents. */
  documents: number;
  /** Documents wanted (focus.referenceCrawl.maxPages). */
  total: number;
  /** The URL just tried. */
  url: string;
}

/**
 * ARCOMEM's reference crawl: the seeds plus up to `focus.referenceCrawl.maxPages` pages within
 * `maxDepth`, fetched politely one at a time, whose main text builds the topic vector
 * (TF-IDF-weighted sum of the documents' vectors plus the keywords and topics). Nothing is
 * archived: this only proposes terms. `signal` stops it between two fetches (the archivist
 * cancelled or left): the terms then come from the pages fetched so far.
 */
export async function runReferenceCrawl(
  icd: Icd,
  opts: { onProgress?(progress: ReferenceCrawlProgress): void; signal?: AbortSignal } = {},
): Promise<ReferenceCrawlResult> {
  const { maxPages, maxDepth } = icd.focus.referenceCrawl;
  const spoolDir = mkdtempSync(join(tmpdir(), 'tidemark-reference-'));
  const fetcher = createFetcher({ userAgent: icd.userAgent, limits: { ...icd.limits, maxRetries: 0 }, spoolDir, rejectUnauthorized: icd.limits.verifyCertificates, cookieJar: icd.cookies ? createCookieJar() : undefined });
  const scope = compileScope(icd.scope, icd.seeds);
  const analyzer = createTextAnalyzer({ language: icd.focus.language });
  const queue: { url: string; depth: number }[] = [];
  const seen = new Set<string>();
  for (const seed of icd.seeds) {
    const url = canonicalize(seed);
    if (url && !seen.has(url)) {
      seen.add(url);
      queue.push({ url, depth: 0 });
    }
  }
  const docs: { url: string; title: string; text: string }[] = [];
  const failures: ReferenceCrawlResult['failures'] = [];
  /** Fetches one URL: its text becomes a document, its in-scope links are queued. */
  const learnFrom = async (url: string, depth: number): Promise<void> => {
    const outcome = await fetcher.fetch(url);
    if (!outcome.ok) {
      failures.push({ url, reason: outcome.reason });
      return;
    }
    const ex = outcome.exchange;
    try {
      if (ex.status < 200 || ex.status >= 400) {
        failures.push({ url, reason: `http-${ex.status}` });
        return;
      }
      const { body, cut } = ex.status < 300 ? await bodyForParsing(ex, icd.limits.maxDecodedBytes) : { body: Buffer.alloc(0), cut: false };
      const result = extractFromResponse({ url, status: ex.status, headers: ex.headers, body, truncated: cut, maxDecodedBytes: icd.limits.maxDecodedBytes, ...pageLinkSettingsOf(icd.scope) });
      if (result.kind === 'html') docs.push({ url, title: result.title ?? '', text: result.mainText || result.text || '' });
      for (const link of result.links) {
        if (link.kind !== 'navigation' && link.kind !== 'redirect') continue;
        if (seen.has(link.url) || depth + 1 > maxDepth) continue;
        if (!checkScope({ url: link.url, depth: depth + 1, kind: link.kind }, scope).inScope) continue;
        seen.add(link.url);
        queue.push({ url: link.url, depth: depth + 1 });
      }
    } catch (err) {
      failures.push({ url, reason: (err as Error).message });
    } finally {
      await releaseBody(ex.body).catch(() => undefined);
    }
  };
  try {
    let fetched = 0;
    while (queue.length && docs.length < maxPages && !opts.signal?.aborted) {
      const { url, depth } = queue.shift()!;
      await learnFrom(url, depth);
      opts.onProgress?.({ fetched: ++fetched, documents: docs.length, total: maxPages, url });
      // Failures wait like pages (a failing host is not asked again at once); an abort ends the wait.
      if (icd.politeness.enabled && queue.length) await sleep(icd.politeness.minDelayMs, undefined, { signal: opts.signal }).catch(() => undefined);
    }
  } finally {
    await fetcher.close();
    rmSync(spoolDir, { recursive: true, force: true });
  }
  const termsOf = (text: string) => analyzer.analyze(text).terms;
  const topic = buildTopicVector(docs, icd.focus.keywords, icd.focus.topics, { termsOf, topN: 40 });
  return {
    documents: docs.map((d) => ({ url: d.url, title: d.title, words: d.text.split(/\s+/).filter(Boolean).length })),
    topTerms: topic.topTerms,
    topicTerms: Object.fromEntries(topTerms(topic.vector, ICD_LIMITS.topicTerms).map((t) => [t.term, t.weight])),
    failures,
  };
}
