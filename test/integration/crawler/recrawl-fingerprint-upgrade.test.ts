/**
 * The first recrawl round of a crawl that is not a visit–revisit one (its initial crawl keeps no
 * fingerprint) judges a page whose payload differs by the fingerprint of its stored capture, read
 * from its WARC record then, and only then: a page whose payload is the same costs no read. So does
 * a round of a crawl resumed by this version whose engine_recrawl_page an earlier one made (no
 * fingerprint column: the engine adds it). A page whose stored record cannot be read is judged by its
 * payload digest (logged). Real parts: a migrated SQLite database, engines run one after the other on
 * it with a shortened minute, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { columnExists } from '../../../worker/store/sqlite';
import { withSiteCrawl } from '../../support/site-crawl';
import { countedSite } from '../../support/counted-site';

/**
 * A home page linking /stamped, a page whose only change is the time it was served at, and
 * `stillPaths`, pages that answer the same bytes every time.
 */
function stampedSite(stillPaths: readonly string[] = []) {
  return countedSite((path, n, _req, res) => {
    const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><head><title>${path}</title></head><body>${body}</body></html>`);
    if (path === '/') return html(['<a href="/stamped">the harbour</a>', ...stillPaths.map((p) => `<a href="${p}">${p}</a>`)].join(' '));
    if (stillPaths.includes(path)) return html(`<main><h1>Tide tables</h1><p>High water at the lock gates, ${path}: the tables for the estuary are kept by the harbour master.</p></main>`);
    if (path === '/stamped') return html(`<main><h1>The harbour</h1><p>The pilots meet every morning at the lock gates to read the weather and the river gauges before the boats leave.</p><p>Served at 2026-12-01T10:${String(n % 60).padStart(2, '0')}:00Z</p></main>`);
    res.writeHead(404).end();
  });
}

/** Runs the initial crawl until round 0 is recorded (the first round an hour away) and pauses it there. */
async function crawlToRoundZero(first: CrawlEngine, db: Database.Database, crawlId: number): Promise<void> {
  const run = first.run();
  const roundZero = () => db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'engine_recrawl'").get() && db.prepare('SELECT round FROM engine_recrawl WHERE crawl_id = ?').get(crawlId);
  for (const end = Date.now() + 30_000; !roundZero() && Date.now() < end; ) await sleep(5);
  await first.pause();
  assert.equal(await run, 'paused');
}

test('round 1 judges a page by its stored capture\'s fingerprint; a table made before the column, by its stored answer\'s too', { timeout: 90_000 }, async () => {
  const { listener: site, requests } = stampedSite();
  await withSiteCrawl('tm-recrawl-fp-upgrade-', site, { name: 'Fingerprints kept', coherence: { recrawlIntervalMinutes: 1 } }, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = () => new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
    const stamped = `${origin}/stamped`;
    const page = () => db.prepare('SELECT fr, fingerprint FROM engine_recrawl_page WHERE crawl_id = ? AND url = ?').get(crawlId, stamped) as { fr: number; fingerprint: string | null };
    const runUntil = async (rounds: number) => {
      const e = engine();
      const run = e.run();
      for (const end = Date.now() + 30_000; (e.incremental?.rounds.length ?? 0) < rounds && Date.now() < end; ) await sleep(5);
      const seen = requests.get('/stamped') ?? 0;
      await e.pause();
      assert.equal(await run, 'paused');
      assert.equal(e.incremental?.rounds.length, rounds, `${rounds} rounds ran`);
      return seen;
    };

    // Round 1 of a snapshot crawl: the visit's fingerprint, read from its record: unchanged.
    assert.equal(await runUntil(1), 2, 'the visit and round 1');
    assert.equal(page().fr, 2, 'unchanged: a lower revisit frequency');
    const digests = db.prepare('SELECT payloadDigest FROM Capture WHERE crawlId = ? AND url = ? ORDER BY id').pluck().all(crawlId, stamped) as string[];
    assert.equal(new Set(digests).size, 2, 'the two payloads differ');
    assert.equal(JSON.parse(page().fingerprint!).payloadDigest, digests[0], "the visit's fingerprint, the version last judged changed, kept");

    // The table as an earlier version made it, and the crawl resumed by this one.
    db.exec('ALTER TABLE engine_recrawl_page DROP COLUMN fingerprint');
    // Rounds 2 (not due), 3 (no fingerprint kept: that of round 1's answer, read from its record:
    // unchanged, fr 1), 4 to 6 (not due). Judged by the digest, round 3 found it changed (fr 4) and
    // refetched it in rounds 4 and 6 too.
    assert.equal(await runUntil(5), 3, 'refetched in round 3 only');
    assert.ok(columnExists(db, 'engine_recrawl_page', 'fingerprint'));
    assert.equal(page().fr, 1, 'unchanged since round 1: the lowest revisit frequency');
  });
});

test('round 1 judges a page whose stored record cannot be read by its digest, and keeps the fingerprint of its refetch', { timeout: 90_000 }, async () => {
  const { listener: site, requests } = stampedSite();
  await withSiteCrawl('tm-recrawl-fp-unreadable-', site, { name: 'Unreadable record', coherence: { recrawlIntervalMinutes: 1 } }, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = (minuteMs: number) => new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs });
    const stamped = `${origin}/stamped`;
    await crawlToRoundZero(engine(3_600_000), db, crawlId);
    assert.equal(requests.get('/stamped'), 1);
    // The page's capture now names a file that is not there.
    db.prepare("UPDATE Capture SET warcFile = 'gone.warc.gz' WHERE crawlId = ? AND url = ?").run(crawlId, stamped);

    const errors: string[] = [];
    const consoleError = console.error;
    console.error = (...args: unknown[]) => void errors.push(args.join(' '));
    const page = () => db.prepare('SELECT fr, fingerprint FROM engine_recrawl_page WHERE crawl_id = ? AND url = ?').get(crawlId, stamped) as { fr: number; fingerprint: string | null };
    const frs: number[] = [];
    try {
      const second = engine(300);
      const run = second.run();
      for (const end = Date.now() + 30_000; (second.incremental?.rounds.length ?? 0) < 2 && Date.now() < end; ) {
        if ((second.incremental?.rounds.length ?? 0) > frs.length) frs.push(page().fr);
        await sleep(5);
      }
      frs.push(page().fr);
      await second.stop();
      assert.equal(await run, 'stopped');
    } finally {
      console.error = consoleError;
    }
    assert.ok(errors.some((e) => e.includes('the fingerprint of gone.warc.gz') && e.includes('could not be read')), `logged: ${errors.join(' | ')}`);
    // Round 1: by the digest, changed (fr 4); round 2: by the fingerprint round 1 kept, unchanged (fr 2).
    assert.deepEqual(frs.slice(0, 2), [4, 2], `revisit frequencies after rounds 1 and 2: ${frs.join(' ')}`);
    assert.notEqual(page().fingerprint, null);
  });
});

test('round 1 reads no stored record for a fingerprint of a page whose payload is the same', { timeout: 90_000 }, async () => {
  const { listener: site, requests } = stampedSite(['/still', '/still-unreadable']);
  await withSiteCrawl('tm-recrawl-fp-lazy-', site, { name: 'Lazy fingerprints', coherence: { recrawlIntervalMinutes: 1 } }, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = (minuteMs: number) => new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs });
    await crawlToRoundZero(engine(3_600_000), db, crawlId);
    // A read of this page's record is logged, as it cannot be read (its validators' is: the first round asks with them).
    db.prepare("UPDATE Capture SET warcFile = 'gone-still.warc.gz' WHERE crawlId = ? AND url = ?").run(crawlId, `${origin}/still-unreadable`);

    const errors: string[] = [];
    const consoleError = console.error;
    console.error = (...args: unknown[]) => void errors.push(args.join(' '));
    try {
      const second = engine(300);
      const run = second.run();
      for (const end = Date.now() + 30_000; (second.incremental?.rounds.length ?? 0) < 1 && Date.now() < end; ) await sleep(5);
      await second.stop();
      assert.equal(await run, 'stopped');
      assert.ok((second.incremental?.rounds.length ?? 0) >= 1, 'round 1 ran');
    } finally {
      console.error = consoleError;
    }
    for (const path of ['/stamped', '/still', '/still-unreadable']) assert.ok((requests.get(path) ?? 0) >= 2, `${path}: visited and refetched in round 1`);
    const page = (path: string) => db.prepare('SELECT fr, fingerprint FROM engine_recrawl_page WHERE crawl_id = ? AND url = ?').get(crawlId, origin + path) as { fr: number; fingerprint: string | null };
    // The page whose payload differs: its visit's fingerprint read, unchanged (fr 2), and kept.
    assert.equal(page('/stamped').fr, 2);
    assert.notEqual(page('/stamped').fingerprint, null);
    // The same payload: unchanged by it, and no fingerprint computed for it, nor its record read for one.
    assert.deepEqual([page('/still').fr, page('/still').fingerprint], [2, null], 'the same payload: unchanged, no fingerprint computed');
    assert.deepEqual([page('/still-unreadable').fr, page('/still-unreadable').fingerprint], [2, null]);
    assert.ok(errors.some((e) => e.includes('the validators of gone-still.warc.gz')), `its record's validators were looked for: ${errors.join(' | ')}`);
    assert.ok(!errors.some((e) => e.includes('the fingerprint of')), `no record read for a fingerprint: ${errors.join(' | ')}`);
  });
});
