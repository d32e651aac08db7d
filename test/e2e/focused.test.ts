import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { ADMIN_PASSWORD, signedInAdmin, startCockpit, type RunningCockpit } from '../support/cockpit';
import { startTopicalSite, type TopicalSite } from '../support/topical-site';
import { launchBrowser, signIn } from './helpers/browser';

let cockpit: RunningCockpit | undefined;
let site: TopicalSite | undefined;
let browser: Browser | undefined;
after(async () => {
  await browser?.close();
  await cockpit?.stop();
  await site?.close();
});

interface StoredIcd {
  definition: { focus: { keywords: { term: string; weight: number }[]; topicTerms: Record<string, number> } };
}

test('an archivist edits the keywords, reviews the reference crawl terms, and watches the relevance chart of the focused crawl live', async () => {
  site = await startTopicalSite(20);
  cockpit = await startCockpit();
  const api = await signedInAdmin(cockpit);
  const icd = await api.json<{ id: number }>('POST', '/api/icds', {
    name: 'Tides, focused',
    seeds: [`${site.origin}/`],
    politeness: { minDelayMs: 120, maxDelayMs: 300, respectRobots: false },
    aah: { enabled: false },
    focus: { enabled: true, keywords: [{ term: 'bake', weight: 1 }], relevanceWindow: 4, referenceCrawl: { maxPages: 12, maxDepth: 2 } },
  });

  browser = await launchBrowser();
  const page = await (await browser.newContext()).newPage();
  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
  await page.goto(`${cockpit.url}/icds/${icd.id}`);

  // Keywords: the wrong one replaced, one added, saved.
  await page.getByLabel('Keyword 1', { exact: true }).fill('tide');
  await page.getByLabel('Weight of keyword 1').fill('2');
  await page.getByRole('button', { name: 'Add keyword' }).click();
  await page.getByLabel('Keyword 2', { exact: true }).fill('estuary');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  const saved = await api.json<StoredIcd>('GET', `/api/icds/${icd.id}`);
  assert.deepEqual(saved.definition.focus.keywords, [{ term: 'tide', weight: 2 }, { term: 'estuary', weight: 1 }]);

  // Reference crawl: the topic terms appear; one is removed and one added before saving.
  await page.getByTestId('run-reference-crawl').click();
  // Its progress shows while it runs (pages politely 120 ms apart).
  await page.getByTestId('reference-progress').filter({ hasText: /\d+ of up to 12 pages/ }).waitFor();
  await page.getByTestId('topic-term').first().waitFor({ timeout: 60_000 });
  const terms = await page.getByTestId('topic-term').evaluateAll((els) => els.map((e) => e.getAttribute('data-term')!));
  assert.ok(terms.length >= 3, `terms: ${terms}`);
  const removed = terms[terms.length - 1]!;
  await page.getByRole('button', { name: `Remove term ${removed}`, exact: true }).click();
  // Typed as a person writes it; added as the stem the crawl's pages produce.
  await page.getByLabel('Term', { exact: true }).fill('Moonrises');
  await page.getByLabel('Term', { exact: true }).press('Enter');
  await page.getByTestId('added-terms').filter({ hasText: '“Moonrises” added as moonris' }).waitFor();
  await page.getByTestId('save-terms').click();
  await page.getByRole('status').filter({ hasText: 'Topic terms saved.' }).waitFor();
  const reviewed = (await api.json<StoredIcd>('GET', `/api/icds/${icd.id}`)).definition.focus.topicTerms;
  assert.equal(reviewed[removed], undefined);
  assert.equal(reviewed.moonris, 1);
  assert.equal(Object.keys(reviewed).length, terms.length);

  // A second reference crawl, cancelled while it runs, leaves the reviewed terms as they are. It
  // runs at 3 s between pages (the stored ICD, set through the API and put back after), so it is
  // surely still running when Cancel is pressed.
  const stored = await api.json<{ name: string; definition: Record<string, unknown> & { politeness: Record<string, unknown> } }>('GET', `/api/icds/${icd.id}`);
  const slow = { ...stored.definition, politeness: { ...stored.definition.politeness, minDelayMs: 3000, maxDelayMs: 3000 } };
  await api.json('PUT', `/api/icds/${icd.id}`, slow);
  const shown = await page.getByTestId('topic-term').count();
  await page.getByTestId('run-reference-crawl').click();
  await page.getByTestId('reference-progress').waitFor();
  await page.getByTestId('cancel-reference-crawl').click();
  await page.getByText('The reference crawl was cancelled; the terms are unchanged.').waitFor();
  assert.equal(await page.getByTestId('topic-term').count(), shown);
  assert.equal(await page.getByTestId('run-reference-crawl').isEnabled(), true);
  await api.json('PUT', `/api/icds/${icd.id}`, stored.definition);

  // The crawl: the relevance chart gains points while its HTTP re-reads are cut off (socket.io only).
  await page.getByTestId('start-crawl').click();
  await page.waitForURL(/\/crawls\/\d+$/);
  const crawlId = Number(/\/crawls\/(\d+)$/.exec(page.url())![1]);
  const chart = page.getByTestId('relevance-chart');
  await chart.waitFor();
  await page.locator('[data-testid="live-state"][data-state="live"]').waitFor();
  await page.route(new RegExp(`/api/crawls/${crawlId}/relevance$`), (route) => route.abort());
  const documentsBefore = Number(await chart.getAttribute('data-documents'));
  await page.waitForFunction(
    (before) => Number(document.querySelector('[data-testid="relevance-chart"]')?.getAttribute('data-documents')) > before,
    documentsBefore,
  );
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="relevance-chart"]')?.getAttribute('data-points')) >= 2);
  const lines = await chart.locator('path[data-series]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-series'), e.getAttribute('d')]));
  assert.deepEqual(lines.map(([series]) => series).sort(), ['harvest', 'normalised']);
  for (const [, d] of lines) assert.match(d ?? '', /^M[\d.]+,[\d.]+L/, 'a line through at least two points');
  await page.unrouteAll();

  await page.locator('[data-testid="status"][data-status="finished"]').waitFor({ timeout: 90_000 });
  // Every HTML page of the site (the index and 20 pages of each topic) was analysed.
  await page.getByTestId('relevance-summary').filter({ hasText: /^41 documents/ }).waitFor();
  // The most relevant captures: the ten pages most similar to the topic, most similar first.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="relevant-capture"]').length === 10);
  const similarities = (await page.locator('[data-testid="relevant-capture"] > span:first-child').allTextContents()).map(Number);
  const all = await api.json<{ items: { similarity: number | null }[] }>('GET', `/api/crawls/${crawlId}/captures?pageSize=500`);
  const topTen = all.items.flatMap((c) => (c.similarity === null ? [] : [Number(c.similarity.toFixed(2))])).sort((a, b) => b - a).slice(0, 10);
  assert.deepEqual(similarities, topTen);
  // A focused crawl's captures show their score.
  await page.getByTestId('captures-table').locator('th').first().waitFor();
  assert.equal(await page.getByTestId('captures-table').locator('th', { hasText: 'Score' }).count(), 1);
});
