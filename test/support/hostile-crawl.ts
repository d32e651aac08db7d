import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { verifyCdxj, verifyWarcFile } from '../../worker/warc';
import { crawlToTheEnd } from './finished-crawl';
import { withCrawl } from './site-crawl';

/** One crawl-log entry of a hostile crawl. */
export interface LoggedOutcome {
  outcome: string;
  status: number | null;
  message: string | null;
  retries: number;
}

/** What a crawl of a hostile site left, by URL path (query kept): crawl log, captures, exclusions. */
export interface HostileCrawl {
  origin: string;
  /** The crawl log's last entry of each path (robots.txt entries included). */
  log: Map<string, LoggedOutcome>;
  captures: Map<string, { status: number; size: number; truncated: string | null; recordType: string; mime: string }>;
  /** URLs the frontier refused, with its reason. */
  excluded: Map<string, string>;
  /** Every URL the frontier holds, whatever its state (query kept). */
  urls: string[];
  /** Of the texts the crawl was asked to look for (`lookFor`), those found in its WARC files' records. */
  inWarcs: Set<string>;
}

const pathOf = (url: string, origin: string) => (url.startsWith(origin) ? url.slice(origin.length) : url);

/**
 * Crawls `origin` (seed: `seedPath` on it) to its end with the engine, as the ICD `fields` say
 * (testIcd), and checks that every WARC file it wrote reads back with its digests verified and every
 * CDXJ line points at its record; returns what the crawl recorded, for the test to judge, and which
 * of the texts `lookFor` its WARC records hold.
 */
export async function crawlHostile(prefix: string, origin: string, fields: Record<string, unknown>, seedPath = '/', lookFor: readonly string[] = []): Promise<HostileCrawl> {
  let result: HostileCrawl | undefined;
  await withCrawl(prefix, { name: prefix, seeds: [`${origin}${seedPath}`], ...fields }, async (c) => {
    const warcDir = await crawlToTheEnd(c);
    const warcs = readdirSync(warcDir).filter((n) => n.endsWith('.warc.gz'));
    assert.ok(warcs.length > 0, 'the crawl wrote a WARC file');
    for (const name of warcs) assert.deepEqual((await verifyWarcFile(join(warcDir, name))).errors, [], `${name} reads back with its digests verified`);
    assert.deepEqual((await verifyCdxj(join(warcDir, 'index.cdxj'), warcDir)).errors, [], 'every CDXJ line points at its record');
    // Every record of every file, decompressed: gzip members read back to back.
    const records = warcs.map((name) => gunzipSync(readFileSync(join(warcDir, name))).toString('latin1'));
    const rows = <T>(sql: string) => c.db.prepare(sql).all(c.crawlId) as T[];
    result = {
      origin,
      log: new Map(rows<LoggedOutcome & { url: string }>('SELECT url, outcome, status, message, retries FROM CrawlLogEntry WHERE crawlId = ? ORDER BY id').map(({ url, ...e }) => [pathOf(url, origin), e])),
      captures: new Map(
        rows<{ url: string; status: number; size: number; truncated: string | null; recordType: string; mime: string }>(
          'SELECT url, status, size, truncated, recordType, mime FROM Capture WHERE crawlId = ? ORDER BY id',
        ).map(({ url, ...r }) => [pathOf(url, origin), r]),
      ),
      excluded: new Map(rows<{ url: string; reason: string }>('SELECT url, reason FROM frontier_url WHERE crawl_id = ? AND state = 4').map((r) => [pathOf(r.url, origin), r.reason])),
      urls: rows<{ url: string }>('SELECT url FROM frontier_url WHERE crawl_id = ?').map((r) => pathOf(r.url, origin)),
      inWarcs: new Set(lookFor.filter((text) => records.some((r) => r.includes(text)))),
    };
  });
  return result!;
}
