import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiClient } from '../../support/api-client';
import { signedInAdmin, startCockpit, type RunningCockpit } from '../../support/cockpit';
import { startTopicalSite, type TopicalSite } from '../../support/topical-site';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let cockpit: RunningCockpit;
let site: TopicalSite;
let api: ApiClient;

before(async () => {
  site = await startTopicalSite(20);
  cockpit = await startCockpit();
  api = await signedInAdmin(cockpit);
});

after(async () => {
  await cockpit?.stop();
  await site?.close();
});

interface Entry {
  url: string;
  score: number;
  breakdown: { scores?: Record<string, number>; weights?: Record<string, number>; external?: number } | null;
}
interface Capture {
  url: string;
  status: number;
  score: number | null;
  scoreBreakdown: string | null;
  similarity: number | null;
}

test('a focused crawl: posted scores and blacklist reach the frontier, the frontier top explains its scores, the relevance series matches the captures', { timeout: 180_000 }, async () => {
  const icd = await api.json<{ id: number }>('POST', '/api/icds', {
    name: 'Tides, scored from outside',
    seeds: [`${site.origin}/`],
    politeness: { minDelayMs: 150, maxDelayMs: 300, respectRobots: false },
    aah: { enabled: false },
    // The fixture's repetitive text fools language detection: the ICD says the crawl is English.
    focus: { enabled: true, language: 'eng', keywords: [{ term: 'tide', weight: 2 }, { term: 'estuary', weight: 1 }], relevanceWindow: 10 },
  });
  const crawl = await api.json<{ id: number }>('POST', '/api/crawls', { icdId: icd.id });
  const urls = `/api/crawls/${crawl.id}/urls`;

  // Posted before the worker takes its first URL: applied before it, so the blacklisted page is never fetched.
  const posted = await api.request('POST', urls, [
    { url: `${site.origin}/tides/500.html`, score: 1 },
    { url: `${site.origin}/cooking/7.html`, score: 0, blacklist: true },
    { url: 'http://elsewhere.example/page', score: 0.9 },
    { url: 'no url at all', score: 0.5 },
  ]);
  assert.equal(posted.status, 202);
  assert.deepEqual(await posted.json(), {
    accepted: 1,
    excluded: 1,
    rejected: [
      { url: 'http://elsewhere.example/page', reason: 'out-of-scope-host' },
      { url: 'no url at all', reason: 'invalid-url' },
    ],
  });
  const invalid = await api.request('POST', urls, [{ url: `${site.origin}/x`, score: 2 }]);
  assert.equal(invalid.status, 400);
  assert.match(JSON.stringify(await invalid.json()), /score must be in \[0,1\]/);

  // While it runs, the frontier's best URLs come first, each with the module scores behind it.
  let top: Entry[] = [];
  for (const end = Date.now() + 60_000; Date.now() < end; await sleep(100)) {
    top = await api.json<Entry[]>('GET', `/api/crawls/${crawl.id}/frontier/top?limit=50`);
    if (top.some((e) => e.breakdown?.scores?.text !== undefined)) break;
  }
  const explained = top.find((e) => e.breakdown?.scores?.text !== undefined);
  assert.ok(explained, `a queued URL with a text score: ${JSON.stringify(top)}`);
  assert.equal(explained!.breakdown!.weights!.text !== undefined, true, 'weights come with the scores');
  assert.deepEqual(top.map((e) => e.score), [...top.map((e) => e.score)].sort((a, b) => b - a), 'best first');

  assert.equal(await api.waitForCrawlStatus(crawl.id, ['finished'], 120_000), 'finished');

  assert.ok(site.requests.includes('/tides/500.html'), 'the posted URL was crawled (nothing links to it)');
  assert.ok(!site.requests.includes('/cooking/7.html'), 'the blacklisted URL was never fetched, though pages link to it');
  const detail = await api.json<{ stats: { excludedByReason?: Record<string, number> } }>('GET', `/api/crawls/${crawl.id}`);
  assert.equal(detail.stats.excludedByReason?.blacklisted, 1);

  const captures = (await api.json<{ items: Capture[] }>('GET', `/api/crawls/${crawl.id}/captures?pageSize=500`)).items;
  const posted500 = captures.find((c) => c.url.endsWith('/tides/500.html'));
  assert.equal(posted500?.score, 1, 'fetched with the posted score');
  assert.deepEqual(JSON.parse(posted500!.scoreBreakdown!), { external: 1 });
  const linked = captures.filter((c) => /\/tides\/\d+\.html$/.test(c.url) && c.scoreBreakdown);
  assert.ok(linked.length > 10, 'captures keep the breakdown of the priority they were fetched with');

  const analysed = captures.filter((c) => c.similarity !== null).reverse(); // the API lists newest first
  const meanOf = (re: RegExp) => {
    const xs = analysed.filter((c) => re.test(c.url) && c.status === 200).map((c) => c.similarity!);
    return xs.reduce((a, b) => a + b, 0) / xs.length;
  };
  assert.ok(meanOf(/\/tides\//) > meanOf(/\/cooking\//) + 0.05, 'pages on the topic are the similar ones');
  // `?sort=similarity` (the cockpit's most relevant captures): the analysed pages only, most similar first.
  const ranked = await api.json<{ items: Capture[]; total: number }>('GET', `/api/crawls/${crawl.id}/captures?sort=similarity&pageSize=500`);
  assert.equal(ranked.total, analysed.length);
  assert.deepEqual(ranked.items.map((c) => c.similarity), analysed.map((c) => c.similarity).sort((a, b) => b! - a!));
  assert.equal((await api.request('GET', `/api/crawls/${crawl.id}/captures?sort=size`)).status, 400);
  const relevance = await api.json<{ windowSize: number; documents: number; harvestRatio: number; points: { documents: number; meanSimilarity: number; normalised: number }[] }>(
    'GET', `/api/crawls/${crawl.id}/relevance`,
  );
  assert.equal(relevance.windowSize, 10, "the ICD's window");
  assert.equal(relevance.documents, analysed.length);
  assert.equal(relevance.points.length, Math.ceil(analysed.length / 10));
  const firstMean = analysed.slice(0, 10).reduce((a, c) => a + c.similarity!, 0) / 10;
  assert.ok(Math.abs(relevance.points[0]!.meanSimilarity - firstMean) < 1e-9);
  assert.equal(Math.max(...relevance.points.map((p) => p.normalised)), 1);
  assert.equal(relevance.harvestRatio, analysed.filter((c) => c.similarity! > 0.333).length / analysed.length);
  const byFive = await api.json<{ points: unknown[] }>('GET', `/api/crawls/${crawl.id}/relevance?window=5`);
  assert.equal(byFive.points.length, Math.ceil(analysed.length / 5));
  assert.equal((await api.request('GET', `/api/crawls/${crawl.id}/relevance?window=0`)).status, 400);

  assert.deepEqual(await api.json('GET', `/api/crawls/${crawl.id}/frontier/top`), [], 'nothing left queued');
  assert.equal((await api.request('POST', urls, [{ url: `${site.origin}/tides/501.html`, score: 1 }])).status, 409, 'an ended crawl takes no URLs');
  assert.equal((await api.request('GET', '/api/crawls/999999/relevance')).status, 404);
});
