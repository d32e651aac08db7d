/**
 * A recrawl round's Web objects (the AAH's extraction on a changed page) are stored with the page's
 * capture, in its commit, as a first visit's are: when the database refuses them, the capture is
 * not acknowledged either (the crawl pauses, as for any refused commit), and the resumed round
 * captures the page once, with its objects, in the database and the WARC files. They used to be
 * stored after the capture's commit, so a failure there kept the capture and lost the objects for
 * good (the page, saved as refetched, was not due again). The objects of a committed recrawl capture
 * are appended to objects.jsonl, as a first visit's are (they were not), once: not those of the
 * refused commit, so the resumed round adds no duplicate. Each object's WARC record, the visit's
 * and the rounds', names its page's capture record and shares its date (they named none). The failure is real SQLite's: a trigger
 * refuses the objects' rows. Real parts: a migrated SQLite database, the engine on a shortened
 * minute, a loopback site, a knowledge base, the WARC files read with warcio.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';
import { countedSite } from '../../support/counted-site';
import { NEWSROOM_KB_XML as KB_XML } from '../../support/newsroom-kb';
import { warcWebObjects } from '../../support/warc-web-objects';

/** Waits until `done` holds, or `ms` passed. */
async function until(done: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; !done() && Date.now() < end; ) await sleep(10);
}

/**
 * The titles of the Web objects in the folder's WARC metadata records for `url`, in file order.
 * Each record is about its page's capture, the response or revisit record it is written right
 * behind: it names it (WARC-Concurrent-To) and shares its WARC-Date.
 */
async function warcObjectTitles(dir: string, url: string): Promise<string[]> {
  const records = (await warcWebObjects(dir)).filter((r) => r.url === url);
  for (const r of records) {
    assert.ok(r.pageCapture, `a capture of ${url} before its object`);
    assert.deepEqual([r.concurrentTo, r.date], [[r.pageCapture.id], r.pageCapture.date], `the object of ${r.webObject.fields.title} is about its capture`);
    assert.equal(r.writtenBehind, r.pageCapture, 'written right behind its capture');
  }
  return records.map((r) => r.webObject.fields.title!);
}

test("a recrawl round whose Web objects the database refuses leaves no capture without them; resumed, the page is captured once with its objects", { timeout: 60_000 }, async () => {
  const { listener: site } = countedSite((path, n, _req, res) => {
    const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (path === '/') return html('<a href="/story">story</a>');
    if (path === '/story') return html(`<html data-app="newsroom"><body><section class="story"><h2>Story, edition ${n}</h2></section></body></html>`);
    res.writeHead(404).end();
  });
  const fields = { name: 'Recrawl objects', aah: { enabled: true }, politeness: { enabled: false, respectRobots: false }, coherence: { recrawlIntervalMinutes: 1 } };
  await withSiteCrawl('tm-recrawl-objects-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const warcDir = join(dir, 'warcs');
    const story = `${origin}/story`;
    const objectsJsonl = join(dir, 'objects.jsonl');
    const engine = () => new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool'), knowledgeBase: { name: 'newsroom', xml: KB_XML }, minuteMs: 300, objectsJsonlPath: objectsJsonl });
    /** The titles objects.jsonl holds for /story, in order. */
    const jsonlTitles = () => (existsSync(objectsJsonl) ? readFileSync(objectsJsonl, 'utf8').split('\n').filter(Boolean) : [])
      .map((line) => JSON.parse(line) as { type: string; url: string; fields: { title: string } })
      .filter((o) => o.url === story && o.type === 'story').map((o) => o.fields.title);
    const captures = () => db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(crawlId, story) as number;
    const objects = () => db.prepare('SELECT COUNT(*) FROM WebObject WHERE crawlId = ? AND url = ?').pluck().get(crawlId, story) as number;
    // The visit's object stored, the database refuses /story's objects from then on.
    const first = engine();
    const run = first.run();
    await until(() => objects() >= 1, 20_000);
    assert.deepEqual([captures(), objects()], [1, 1], 'the visit captured /story and stored its object');
    db.exec(`CREATE TRIGGER refuse_objects BEFORE INSERT ON WebObject WHEN NEW.url = '${story}' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
    // Several retries' worth of a round failing each minute (300 ms), unless it pauses.
    const ended = await Promise.race([run, sleep(4_000).then(() => null)]);
    if (ended === null) await first.stop();
    assert.deepEqual({ outcome: ended, captures: captures() }, { outcome: 'paused', captures: 1 }, 'the refused commit pauses the crawl; no capture of /story stands without its objects');
    assert.match(first.pausedBecause ?? '', /the database refused to store a capture/);

    db.exec('DROP TRIGGER refuse_objects');
    const resumed = engine();
    const again = resumed.run();
    await until(() => (resumed.incremental?.rounds.length ?? 0) >= 1, 20_000);
    await resumed.stop();
    assert.equal(await again, 'stopped');
    assert.equal(resumed.incremental!.rounds[0]?.round, 1, 'round 1 finished');
    // Each capture of /story (the visit, round 1 and any round after) has its object, tied to it.
    const rows = db.prepare(
      `SELECT c.id AS capture, json_extract(o.fields, '$.title') AS title FROM Capture c LEFT JOIN WebObject o ON o.captureId = c.id AND o.crawlId = c.crawlId
       WHERE c.crawlId = ? AND c.url = ? ORDER BY c.id`,
    ).all(crawlId, story) as { capture: number; title: string | null }[];
    assert.ok(rows.length >= 2, `the visit and round 1's capture: ${JSON.stringify(rows)}`);
    assert.ok(rows.every((r) => r.title !== null), `every capture of /story has its object: ${JSON.stringify(rows)}`);
    assert.equal(new Set(rows.map((r) => r.capture)).size, rows.length, 'one object a capture');
    assert.equal(rows[0]!.title, 'Story, edition 1');
    const titles = await warcObjectTitles(warcDir, story);
    assert.deepEqual(titles, rows.map((r) => r.title), 'the WARC files hold each stored object once, the refused one cut');
    assert.deepEqual(jsonlTitles(), rows.map((r) => r.title), "objects.jsonl holds the visit's and each round's objects, once, the refused one not");
  });
});
