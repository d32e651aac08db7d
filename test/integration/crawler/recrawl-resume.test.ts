/**
 * A recrawl round paused part-way goes on, when the crawl resumes, from what it observed before the
 * pause: the selective-incremental rule still judges a parent by the children refetched then, and
 * the parents it refetched then still count in its threshold. Real parts: a migrated SQLite
 * database, engines run one after the other on it with a shortened minute, a loopback site that
 * logs each request and holds some answers back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

const LINKS: Record<string, string[]> = { '/': ['/other', '/section'], '/other': ['/other/o1', '/other/o2'], '/section': ['/section/c1', '/section/c2'] };

/**
 * The home page and two sections never change; the sections' children change at every request.
 * Round 2's requests of the `held` paths (the visit and round 1 came first) answer `holdMs` late:
 * the crawl is paused meanwhile.
 */
function sectionsSite(held: readonly string[], holdMs: number): { listener: RequestListener; count(path: string): number; requested: string[] } {
  const requested: string[] = [];
  const count = (path: string) => requested.filter((p) => p === path).length;
  let readings = 0;
  const listener: RequestListener = (req, res) => {
    const path = req.url ?? '/';
    requested.push(path);
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${path}</title>${body}`);
    const answer = (): void => {
      const links = LINKS[path];
      if (links) return void html(links.map((l) => `<a href="${l}">${l}</a>`).join(' '));
      if (Object.values(LINKS).slice(1).flat().includes(path)) return void html(`<p>reading ${++readings}</p>`);
      res.writeHead(404).end();
    };
    setTimeout(answer, held.includes(path) && count(path) === 3 ? holdMs : 0);
  };
  return { listener, count, requested };
}

test('a round paused after the children were refetched, then after a parent, still refetches the parents when resumed', { timeout: 60_000 }, async () => {
  const { listener: site, count, requested } = sectionsSite(['/section/c2', '/other'], 500);
  await withSiteCrawl('tm-recrawl-resume-', site, { name: 'Paused round', coherence: { recrawlIntervalMinutes: 1 } }, async ({ dir, db, icd, crawlId }) => {
    const engine = () => new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
    const pausedAt = async (path: string) => {
      const e = engine();
      const run = e.run();
      for (const end = Date.now() + 20_000; count(path) < 3 && Date.now() < end; ) await sleep(5);
      assert.equal(count(path), 3, `round 2 requested ${path}: ${requested.join(' ')}`);
      await e.pause();
      assert.equal(await run, 'paused');
      return e;
    };
    // Round 1 refetches the seven pages (the home page and the sections are unchanged: not due in
    // round 2); round 2 refetches the four children, all changed, and is paused before the rule
    // refetches a section (c2 is the last due, by URL).
    const first = await pausedAt('/section/c2');
    assert.deepEqual(first.incremental?.rounds.map((r) => r.round), [1]);
    assert.deepEqual([count('/other'), count('/section')], [2, 2], 'the visit and round 1');
    // Resumed: the rule refetches /other first, and the crawl is paused again before /section.
    const second = await pausedAt('/other');
    assert.deepEqual(second.incremental?.rounds, []);
    assert.equal(count('/section'), 2);

    const last = engine();
    const run = last.run();
    for (const end = Date.now() + 20_000; !last.incremental?.rounds.length && Date.now() < end; ) await sleep(5);
    await last.stop();
    assert.equal(await run, 'stopped');
    const round2 = last.incremental?.rounds[0];
    assert.equal(round2?.round, 2);
    for (const child of ['/other/o1', '/other/o2', '/section/c1', '/section/c2']) assert.equal(count(child), 3, `${child} was not fetched again`);
    assert.deepEqual([count('/other'), count('/section')], [3, 3], 'each section refetched once in round 2');
    assert.equal(round2?.parentsFetched, 2, `the rule refetched both sections in round 2: ${JSON.stringify(round2)}`);
    assert.equal(round2?.changed, 4, 'the round counts the children changed before the pauses');
    // Both sections were unchanged: each wasted refetch raised the threshold, the one before the pause too.
    assert.ok(Math.abs(round2!.parentThreshold - 0.7) < 1e-9, `threshold ${round2?.parentThreshold}`);
  });
});

test('a round whose parent refetch a pause cut short is not finished: resumed, it refetches the parent', { timeout: 60_000 }, async () => {
  // The rule's refetch of /section (after /other's) answers after the pause has cut fetches off.
  const { listener: site, count } = sectionsSite(['/section'], 2_000);
  await withSiteCrawl('tm-recrawl-cut-', site, { name: 'Cut round', coherence: { recrawlIntervalMinutes: 1 } }, async ({ dir, db, icd, crawlId }) => {
    const engine = () => new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300, haltGraceMs: 100 });
    const first = engine();
    let run = first.run();
    for (const end = Date.now() + 20_000; count('/section') < 3 && Date.now() < end; ) await sleep(5);
    assert.equal(count('/section'), 3, 'round 2 asked for /section');
    await first.pause();
    assert.equal(await run, 'paused');
    assert.deepEqual(first.incremental?.rounds.map((r) => r.round), [1], 'round 2 did not finish without /section');

    const resumed = engine();
    run = resumed.run();
    for (const end = Date.now() + 20_000; !resumed.incremental?.rounds.length && Date.now() < end; ) await sleep(5);
    await resumed.stop();
    assert.equal(await run, 'stopped');
    const round2 = resumed.incremental?.rounds[0];
    assert.equal(round2?.round, 2);
    assert.deepEqual([count('/other'), count('/section')], [3, 4], '/section refetched again, /other not');
    assert.equal(round2?.parentsFetched, 2, JSON.stringify(round2));
    assert.equal(round2?.fetched, 6, 'the four children and the two sections, each counted once');
    assert.ok(Math.abs(round2!.parentThreshold - 0.7) < 1e-9, `threshold ${round2?.parentThreshold}`);
  });
});
