/**
 * A recrawl round interrupted (a pause; a restart is the same: the state is in the database) after
 * a refetch got no answer about its page: the round had archived or logged that refetch, yet run
 * again it requested the page again, archiving and counting a second failure in the same round.
 * The round now records such a refetch with its capture or log entry and, run again, goes on from
 * what it recorded: the page is not requested again in that round, and it is in the next.
 * Real parts: a migrated SQLite database, engines run one after the other on it with a shortened
 * minute, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { RecrawlState } from '../../../worker/crawler/recrawl-round';
import { openSqlite } from '../../../worker/store/sqlite';
import { withSiteCrawl } from '../../support/site-crawl';
import { countedSite } from '../../support/counted-site';

for (const failure of ['503', 'cut'] as const) {
  test(`a recrawl round run again after a pause does not refetch a page it recorded without an answer (${failure})`, { timeout: 60_000 }, async () => {
    const { listener: site, requests } = countedSite((path, n, req, res) => {
      const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
      if (path === '/') return html('<a href="/a">a</a> <a href="/b">b</a> <a href="/c">c</a>');
      if (!['/a', '/b', '/c'].includes(path)) return void res.writeHead(404).end();
      // Round 1 (the second request): /a gets no answer about the page; /b's answer comes after the pause.
      if (path === '/a' && n === 2) return failure === 'cut' ? void req.socket.destroy() : void res.writeHead(503, { 'content-type': 'text/html' }).end('<p>busy</p>');
      if (path === '/b' && n === 2) return void setTimeout(() => html('<p>late</p>'), 2_000);
      html(`<p>the stable page ${path}</p>`);
    });
    const fields = { name: 'Rerun of a round', coherence: { recrawlIntervalMinutes: 1 }, limits: { maxRetries: 0 } };
    await withSiteCrawl('tm-recrawl-rerun-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
      const engine = () => new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300, haltGraceMs: 100 });
      const first = engine();
      let run = first.run();
      // Round 1 refetches by URL: /, /a (no answer), then /b, held: the crawl is paused meanwhile.
      for (const end = Date.now() + 20_000; (requests.get('/b') ?? 0) < 2 && Date.now() < end; ) await sleep(5);
      assert.equal(requests.get('/b'), 2, 'round 1 asked for /b');
      await first.pause();
      assert.equal(await run, 'paused');
      assert.deepEqual(first.incremental?.rounds, [], 'round 1 did not finish');
      assert.equal(requests.get('/a'), 2);
      // /a's crawl-log entries of a round (its message is `recrawl round N`, then `; …` when there is more to say).
      const ofRound = (round: number) => db.prepare("SELECT outcome FROM CrawlLogEntry WHERE crawlId = ? AND url = ? AND (message = ? OR message LIKE ?)").pluck().all(crawlId, `${origin}/a`, `recrawl round ${round}`, `recrawl round ${round};%`) as string[];
      const recorded = () => ofRound(1);
      assert.equal(recorded().length, 1, 'the refetch without an answer is in the crawl log');
      const failed = first.stats().failed;

      const resumed = engine();
      run = resumed.run();
      const rounds = () => resumed.incremental?.rounds ?? [];
      for (const end = Date.now() + 20_000; rounds().length < 2 && Date.now() < end; ) await sleep(5);
      await resumed.stop();
      assert.equal(await run, 'stopped');
      const [r1, r2] = rounds();
      assert.equal(r1?.round, 1);
      // The old code requested /a again here (the round had recorded only the pages it observed).
      assert.equal(recorded().length, 1, `round 1 requested /a once: ${recorded().join(' / ')}`);
      assert.deepEqual([r1!.due, r1!.fetched, r1!.changed], [4, 3, 0], 'round 1: /, /b and /c observed; /a due, not observed');
      // Still due (nothing observed of it in round 1): round 2 refetches it, and it answers.
      assert.equal(r2?.round, 2);
      assert.equal(requests.get('/a'), 3, 'the visit, round 1 (no answer) and round 2');
      assert.deepEqual(ofRound(2), ['ok']);
      assert.equal(resumed.stats().failed, failed, 'no failure counted again');
    });
  });
}

test('a due page without an answer in a round is not refetched in it as a parent by the selective-incremental rule', { timeout: 60_000 }, async () => {
  const { listener: site, requests } = countedSite((path, n, _req, res) => {
    const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (path === '/') return html('<a href="/s">s</a>');
    // Round 1 (the second request) gets a 503 from the section; its children change at every request.
    if (path === '/s') return n === 2 ? void res.writeHead(503, { 'content-type': 'text/html' }).end('<p>busy</p>') : html('<a href="/s/c1">1</a> <a href="/s/c2">2</a>');
    if (path === '/s/c1' || path === '/s/c2') return html(`<p>${path} reading ${n}</p>`);
    res.writeHead(404).end();
  });
  const fields = { name: 'Failed parent', coherence: { recrawlIntervalMinutes: 1 }, limits: { maxRetries: 0 } };
  await withSiteCrawl('tm-recrawl-failed-parent-', site, fields, async ({ dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
    const run = engine.run();
    for (const end = Date.now() + 20_000; !engine.incremental?.rounds.length && Date.now() < end; ) await sleep(5);
    await engine.stop();
    assert.equal(await run, 'stopped');
    const r1 = engine.incremental?.rounds[0];
    assert.equal(r1?.round, 1);
    // Both children changed: the old rule took /s, not observed in the round, for a parent not yet refetched.
    assert.equal(r1!.changed, 2);
    assert.deepEqual([r1!.parentsFetched, requests.get('/s')], [0, 2], `/s requested by the visit and round 1 only: ${JSON.stringify(r1)}`);
  });
});

test("a crawl's recrawl tables made before a round recorded refetches without an answer, and bombs, are upgraded in place", async () => {
  const db = openSqlite(':memory:');
  try {
    // The tables as the engine made them before (no engine_recrawl_page.bomb, no engine_recrawl_result.observed).
    db.exec(`CREATE TABLE engine_recrawl_page (crawl_id INTEGER NOT NULL, url TEXT NOT NULL, parent_url TEXT, depth INTEGER NOT NULL, fr REAL NOT NULL, last_round INTEGER NOT NULL,
      payload_digest TEXT, etag TEXT, last_modified TEXT, PRIMARY KEY (crawl_id, url)) WITHOUT ROWID;
      CREATE TABLE engine_recrawl_result (crawl_id INTEGER NOT NULL, round INTEGER NOT NULL, url TEXT NOT NULL, changed INTEGER NOT NULL, by_rule INTEGER NOT NULL);
      INSERT INTO engine_recrawl_page VALUES (1, 'http://quay.test/', NULL, 0, 4, 1, 'sha1:X', NULL, NULL);
      INSERT INTO engine_recrawl_result VALUES (1, 2, 'http://quay.test/', 1, 0);`);
    const state = new RecrawlState(db, 1);
    assert.deepEqual(state.results(2), [{ url: 'http://quay.test/', changed: true, byRule: false, observed: true, hostAnswer: { answered: true } }], 'a result stored before was an observation, so an answer of its host');
    assert.equal(state.pages()[0]?.bomb, 0, 'a page stored before is no bomb');
    state.unobserved(2, 'http://quay.test/a', true, { answered: false, reason: 'connect-refused' });
    state.unobserved(2, 'http://quay.test/b', false, null);
    assert.deepEqual(state.results(2).map((r) => [r.url, r.observed, r.hostAnswer]), [
      ['http://quay.test/', true, { answered: true }],
      ['http://quay.test/a', false, { answered: false, reason: 'connect-refused' }],
      ['http://quay.test/b', false, null],
    ]);
    new RecrawlState(db, 1); // and opened again, as is
  } finally {
    db.close();
  }
});
