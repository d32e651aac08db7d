import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { WARCParser } from 'warcio';
import { awkwardIcd, startAwkwardSite, type AwkwardSite } from '../../support/awkward-site';
import { runCli } from '../../support/run-cli';

let site: AwkwardSite;
/** The crawl parsed on its own thread, which both tests compare with. */
let here: CrawlOutcome;
before(async () => {
  site = await startAwkwardSite({ robots: 'User-agent: *\nDisallow: /private/\n' });
  here = await crawl({ TIDEMARK_EXTRACT_THREAD: '0' });
});
after(async () => site.close());

interface CrawlOutcome {
  stderr: string;
  captures: string[];
  log: string[];
  /** Each page's out-links metadata record, by URL. */
  outLinks: Map<string, string>;
}

/** Crawls the awkward site with the CLI, with `env` added, and reads back what it kept. */
async function crawl(env: Record<string, string>): Promise<CrawlOutcome> {
  const out = mkdtempSync(join(tmpdir(), 'tm-extract-thread-'));
  const icdPath = join(out, 'icd.json');
  writeFileSync(icdPath, JSON.stringify(awkwardIcd(site.origin)));
  const run = await runCli(['crawl', icdPath, '--out', out, '--json'], { env }).done;
  assert.equal(run.code, 0, `crawl finished (stderr: ${run.stderr.slice(-2000)})`);
  const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
  const rows = <T>(sql: string) => db.prepare(sql).all() as T[];
  const captures = rows<{ url: string; status: number; recordType: string; title: string | null }>('SELECT url, status, recordType, title FROM Capture')
    .map((c) => `${c.url} ${c.status} ${c.recordType} ${c.title}`)
    .sort();
  const log = rows<{ url: string; outcome: string; status: number | null }>('SELECT url, outcome, status FROM CrawlLogEntry').map((l) => `${l.url} ${l.outcome} ${l.status}`).sort();
  db.close();
  const outLinks = new Map<string, string>();
  for (const name of readdirSync(out).filter((f) => f.endsWith('.warc.gz'))) {
    for await (const record of new WARCParser(createReadStream(join(out, name)), { parseHttp: false })) {
      if (record.warcType !== 'metadata' || record.warcContentType === 'application/json') continue;
      outLinks.set(record.warcTargetURI!, Buffer.from(await record.readFully(false)).toString('utf8'));
    }
  }
  return { stderr: run.stderr, captures, log, outLinks };
}

test('a crawl of the awkward site parsed on the extraction thread keeps what a crawl parsed on its own thread keeps', { timeout: 120_000 }, async () => {
  const threaded = await crawl({ TIDEMARK_EXTRACT_THREAD: '1' });
  assert.ok(here.captures.length >= 20 && here.outLinks.size >= 10, `a crawl worth comparing (${here.captures.length} captures, ${here.outLinks.size} out-link records)`);
  assert.ok([...here.outLinks.values()].some((v) => v.includes('/hostile/after-nesting')), 'links found below 100,000 open elements');
  assert.deepEqual(threaded.captures, here.captures);
  assert.deepEqual(threaded.log, here.log);
  assert.deepEqual(new Map([...threaded.outLinks].sort()), new Map([...here.outLinks].sort()));
  assert.doesNotMatch(threaded.stderr, /extraction thread/, 'the thread did the parsing (no fallback)');
});

test('an extraction thread that cannot start leaves the parsing to the crawl thread: one warning, nothing lost', { timeout: 120_000 }, async () => {
  // Without the CLI's bundle the thread's entry is read from the environment: here a file that is not there.
  const failed = await crawl({ TIDEMARK_NO_BUNDLE: '1', TIDEMARK_EXTRACT_THREAD: '1', TIDEMARK_EXTRACT_THREAD_ENTRY: '/nonexistent/extract-thread.mjs' });
  assert.equal(failed.stderr.match(/extraction thread failed/g)?.length, 1, `one warning (stderr: ${failed.stderr.slice(-1000)})`);
  assert.match(failed.stderr, /extraction thread failed: .*extract-thread\.mjs.*crawl's thread/s);
  assert.deepEqual(failed.captures, here.captures);
  assert.deepEqual(failed.log, here.log);
  assert.deepEqual(new Map([...failed.outLinks].sort()), new Map([...here.outLinks].sort()));
});
