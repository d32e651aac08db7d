/**
 * Accessibility of the cockpit: every page, with real content (crawls of loopback sites, an
 * export, adapted rules, users), and the states that show notices, audited in Chromium by axe-core
 * against WCAG 2.0 and 2.1, levels A and AA; then what the keyboard alone must be able to do.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { ApiClient } from '../support/api-client';
import { ADMIN_PASSWORD, type RunningCockpit } from '../support/cockpit';
import { startFixtureSite } from '../support/fixture-site';
import { startTopicalSite } from '../support/topical-site';
import { startChangingSite, type ChangingSite } from '../integration/coherence/changing-site';
import { startForumBoard } from '../integration/aah/forum-board';
import { openSqlite, sqlDate } from '../../worker/store/sqlite';
import { STATUS_CLASS_COLOURS } from '../../app/lib/client/chart-layout';
import { SqliteFeedMemoryStore } from '../../worker/crawler/feed-state-store';
import { RecrawlState } from '../../worker/crawler/recrawl-round';
import { assertFocusComes, signIn, startBrowserRig, stopBrowserRig } from './helpers/browser';

const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** Puts axe-core into the page, once per document. */
async function injectAxe(page: Page): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_SCRIPT });
}

/**
 * The elements of `selector` whose colour (`border`: a form field's edge; `fill`: an SVG shape,
 * as painted: its fill-opacity and opacity laid over what is behind) reads below 3:1 against the
 * first opaque background behind them (WCAG 1.4.11, non-text contrast, which axe does not check),
 * with their ratio; axe's own colour arithmetic.
 */
async function faintGraphics(page: Page, selector: string, part: 'border' | 'fill'): Promise<string[]> {
  await injectAxe(page);
  return page.evaluate(([selector, part]) => {
    type Colour = { parseString(s: string): void; alpha: number };
    const { color } = (window as unknown as { axe: { commons: { color: { Color: new () => Colour; getContrast(bg: Colour, fg: Colour): number } } } }).axe.commons;
    // (No named functions in here: tsx would wrap them in a helper the page does not have.)
    return [...document.querySelectorAll(selector)]
      .filter((el) => el.getClientRects().length > 0)
      .flatMap((el) => {
        const style = getComputedStyle(el);
        const css = [part === 'border' ? style.borderTopColor : style.fill];
        for (let at = el.closest('svg') ?? el.parentElement; at; at = at.parentElement) css.push(getComputedStyle(at).backgroundColor);
        const [fg, ...behind] = [...css, 'rgb(255, 255, 255)'].map((c) => {
          const colour = new color.Color();
          colour.parseString(c);
          return colour;
        });
        if (part === 'fill') fg!.alpha *= Number(style.fillOpacity) * Number(style.opacity);
        const ratio = color.getContrast(behind.find((c) => c.alpha === 1)!, fg!);
        return ratio < 3 ? [`${el.id || el.getAttribute('data-series') || el.closest('[data-url]')?.getAttribute('data-url') || el.tagName}: ${ratio.toFixed(2)}:1`] : [];
      });
  }, [selector, part] as const);
}

/**
 * The colours of `colours` (CSS, by name) that read below 3:1 against the first opaque background
 * behind `where` (an element of the page): a chart's whole palette, shown or not.
 */
async function faintColours(page: Page, where: string, colours: Record<string, string>): Promise<string[]> {
  await injectAxe(page);
  return page.evaluate(([where, colours]) => {
    type Colour = { parseString(s: string): void; alpha: number };
    const { color } = (window as unknown as { axe: { commons: { color: { Color: new () => Colour; getContrast(bg: Colour, fg: Colour): number } } } }).axe.commons;
    const css: string[] = [];
    for (let at = document.querySelector(where); at; at = at.parentElement) css.push(getComputedStyle(at).backgroundColor);
    const [bg, ...fgs] = [[...css, 'rgb(255, 255, 255)'].find((c) => { const k = new color.Color(); k.parseString(c); return k.alpha === 1; })!, ...Object.values(colours)].map((c) => {
      const colour = new color.Color();
      colour.parseString(c);
      return colour;
    });
    return Object.keys(colours).flatMap((name, i) => {
      const ratio = color.getContrast(bg!, fgs[i]!);
      return ratio < 3 ? [`${name} ${colours[name]}: ${ratio.toFixed(2)}:1`] : [];
    });
  }, [where, colours] as const);
}

/**
 * The boundaries between consecutive shapes of `selector` (a stack's areas, bottom to top) that
 * colour alone cannot show: where the two fills, as painted, differ by less than 3:1 and the upper
 * shape draws no edge (a stroke 1 px or wider) at 3:1 or more against both (WCAG 1.4.11).
 */
async function blurredBoundaries(page: Page, selector: string): Promise<string[]> {
  await injectAxe(page);
  return page.evaluate((selector) => {
    type Colour = { parseString(s: string): void; alpha: number };
    const { color } = (window as unknown as { axe: { commons: { color: { Color: new () => Colour; getContrast(bg: Colour, fg: Colour): number; flattenColors(fg: Colour, bg: Colour): Colour } } } }).axe.commons;
    const shapes = [...document.querySelectorAll(selector)].filter((el) => el.getClientRects().length > 0);
    if (!shapes.length) return [];
    const css: string[] = [];
    for (let at: Element | null = shapes[0]!.closest('svg'); at; at = at.parentElement) css.push(getComputedStyle(at).backgroundColor);
    // (Methods, not named arrow functions: tsx would wrap those in a helper the page does not have.)
    const paint = {
      parse(c: string, alpha = 1) {
        const colour = new color.Color();
        colour.parseString(c);
        colour.alpha *= alpha;
        return colour;
      },
    };
    const bg = [...css, 'rgb(255, 255, 255)'].map((c) => paint.parse(c)).find((c) => c.alpha === 1)!;
    const painted = shapes.map((el) => {
      const s = getComputedStyle(el);
      const fill = color.flattenColors(paint.parse(s.fill, Number(s.fillOpacity) * Number(s.opacity)), bg);
      const edge = s.stroke !== 'none' && parseFloat(s.strokeWidth) >= 1 ? color.flattenColors(paint.parse(s.stroke, Number(s.strokeOpacity) * Number(s.opacity)), bg) : null;
      return { name: el.getAttribute('data-series') ?? el.tagName, fill, edge };
    });
    return painted.slice(1).flatMap((upper, i) => {
      const lower = painted[i]!;
      const fills = color.getContrast(lower.fill, upper.fill);
      const edge = upper.edge ? Math.min(color.getContrast(upper.edge, lower.fill), color.getContrast(upper.edge, upper.fill)) : 0;
      return Math.max(fills, edge) < 3 ? [`${lower.name}/${upper.name}: fills ${fills.toFixed(2)}:1, edge ${upper.edge ? `${edge.toFixed(2)}:1` : 'none'}`] : [];
    });
  }, selector);
}

/**
 * The legend entries of the chart figure `figure` whose swatch is not painted in the colour its
 * series' shapes are (`data-series` equal to the entry's text), both laid over the background.
 */
async function legendMismatches(page: Page, figure: string): Promise<string[]> {
  await injectAxe(page);
  return page.evaluate((figure) => {
    type Colour = { parseString(s: string): void; alpha: number; red: number; green: number; blue: number };
    const { color } = (window as unknown as { axe: { commons: { color: { Color: new () => Colour; flattenColors(fg: Colour, bg: Colour): Colour } } } }).axe.commons;
    // (Methods, not named arrow functions: tsx would wrap those in a helper the page does not have.)
    const paint = {
      rgb(c: string, alpha = 1) {
        const colour = new color.Color();
        colour.parseString(c);
        colour.alpha *= alpha;
        const white = new color.Color();
        white.parseString('rgb(255, 255, 255)');
        const flat = color.flattenColors(colour, white);
        return [flat.red, flat.green, flat.blue].map(Math.round);
      },
    };
    const root = document.querySelector(figure)!;
    return [...root.querySelectorAll('figcaption span[aria-hidden]')].flatMap((swatch) => {
      const name = swatch.parentElement!.textContent!.trim();
      const shape = root.querySelector(`svg [data-series="${name}"]`);
      if (!shape) return [];
      const s = getComputedStyle(shape);
      const shown = paint.rgb(s.fill, Number(s.fillOpacity) * Number(s.opacity));
      const key = paint.rgb(getComputedStyle(swatch).backgroundColor);
      return shown.some((v, i) => Math.abs(v - key[i]!) > 2) ? [`${name}: area rgb(${shown.join(', ')}), swatch rgb(${key.join(', ')})`] : [];
    });
  }, figure);
}

/**
 * Runs axe on what `page` shows now and fails with every violation: the rule, how many nodes,
 * and where (up to 5 selectors each). The tester's preview frame is a pasted page, not the
 * cockpit's, so frames are not entered (their own title is still checked).
 */
async function assertAccessible(page: Page, where: string): Promise<void> {
  await injectAxe(page);
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'], iframes: false });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
  }, WCAG_TAGS);
  const report = violations.map((v) => {
    const nodes = v.nodes.slice(0, 5).map((n) => `      ${n.target.join(' ')}: ${(n.failureSummary ?? '').split('\n').slice(1, 2).join('').trim()}`);
    return `  ${v.id} (${v.impact}, ${v.nodes.length} node${v.nodes.length === 1 ? '' : 's'}): ${v.help}\n${nodes.join('\n')}${v.nodes.length > 5 ? '\n      …' : ''}`;
  });
  assert.equal(violations.length, 0, `axe, WCAG 2.1 A/AA, on ${where}:\n${report.join('\n')}`);
}

let cockpit: RunningCockpit;
let browser: Browser;
let api: ApiClient;
let page: Page;
const sites: { close(): Promise<void> }[] = [];
let changing: ChangingSite;
const crawl = { plain: 0, focused: 0, coherence: 0, forum: 0, paused: 0 };
let focusedIcd = 0;

const CURATOR = { username: 'curator', password: 'curator-password', role: 'curator' };

/** Creates an ICD and starts a crawl of it; the crawl's id. */
async function startCrawl(icd: Record<string, unknown>): Promise<{ icdId: number; crawlId: number }> {
  const { id } = await api.json<{ id: number }>('POST', '/api/icds', icd);
  const started = await api.json<{ id: number }>('POST', '/api/crawls', { icdId: id });
  return { icdId: id, crawlId: started.id };
}

before(async () => {
  ({ cockpit, browser, api } = await startBrowserRig());
  const fixture = await startFixtureSite({ pageCount: 12, robots: 'User-agent: *\nDisallow: /page/11.html\n' });
  const slow = await startFixtureSite({ pageCount: 40, delayMs: 300 });
  const topical = await startTopicalSite(8);
  changing = await startChangingSite();
  const forum = await startForumBoard();
  sites.push(fixture, slow, topical, changing, forum);
  const quick = { minDelayMs: 0, maxDelayMs: 50, delayFactor: 0 };
  // Five crawls at once: a plain one with a failure and a robots exclusion, a focused one cut
  // short (URLs stay in its frontier), a visit–revisit one, and one of a phpBB board (Web objects,
  // an adapted rule); and a slow one, paused.
  const [plain, focused, coherence, board, paused] = await Promise.all([
    startCrawl({ name: 'Harbour site', seeds: [`${fixture.origin}/`, `${fixture.origin}/reset.html`], politeness: quick, aah: { enabled: false } }),
    startCrawl({
      name: 'Tides, focused', seeds: [`${topical.origin}/`], politeness: { ...quick, respectRobots: false }, aah: { enabled: false }, scope: { maxPages: 10 },
      focus: { enabled: true, keywords: [{ term: 'tide', weight: 2 }, { term: 'estuary', weight: 1 }], topicTerms: { tide: 0.9, estuari: 0.6, moon: 0.4, harbour: 0.3 } },
    }),
    startCrawl({ name: 'Changing harbour site', seeds: [`${changing.origin}/`], politeness: { ...quick, concurrency: 1, respectRobots: false }, aah: { enabled: false }, coherence: { mode: 'visit-revisit' } }),
    startCrawl({ name: 'Lock Board', seeds: [`${forum.origin}/`], politeness: quick }),
    startCrawl({ name: 'Slow site', seeds: [`${slow.origin}/`], politeness: quick, aah: { enabled: false } }),
  ]);
  // Paused once it has captured a few pages.
  const fetched = () => api.json<{ stats: { fetched?: number } | null }>('GET', `/api/crawls/${paused.crawlId}`).then((c) => c.stats?.fetched ?? 0);
  for (const end = Date.now() + 30_000; (await fetched()) < 3 && Date.now() < end; ) await new Promise((r) => setTimeout(r, 100));
  await api.json('POST', `/api/crawls/${paused.crawlId}/control`, { action: 'pause' });
  crawl.plain = plain.crawlId;
  crawl.focused = focused.crawlId;
  crawl.coherence = coherence.crawlId;
  crawl.forum = board.crawlId;
  crawl.paused = paused.crawlId;
  focusedIcd = focused.icdId;
  await api.json('POST', '/api/users', CURATOR);
  assert.equal(await api.waitForCrawlStatus(crawl.paused, ['paused']), 'paused');
  for (const id of [crawl.plain, crawl.focused, crawl.coherence, crawl.forum]) assert.equal(await api.waitForCrawlStatus(id, ['finished', 'stopped', 'failed'], 90_000), 'finished', `crawl ${id}`);
  const captures = await api.json<{ items: { id: number }[] }>('GET', `/api/crawls/${crawl.plain}/captures?pageSize=1`);
  await api.json('POST', `/api/crawls/${crawl.plain}/annotations`, { captureId: null, text: 'Checked against the harbour’s printed guide.' });
  await api.json('POST', `/api/crawls/${crawl.plain}/annotations`, { captureId: captures.items[0]!.id, text: 'The first capture.' });
  const exported = await api.json<{ id: number }>('POST', `/api/crawls/${crawl.plain}/exports`, {});
  let status = '';
  for (const end = Date.now() + 30_000; status !== 'done' && Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    status = (await api.json<{ status: string }>('GET', `/api/exports/${exported.id}`)).status;
  }
  assert.equal(status, 'done');
  page = await (await browser.newContext()).newPage();
  // Leaving an edited form asks first; here the answer is always yes.
  page.on('dialog', (d) => void d.accept());
  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
});
after(async () => {
  await stopBrowserRig({ cockpit, browser });
  await Promise.all(sites.map((s) => s.close()));
});

/**
 * Whether the keyboard's focus shows where it is: an outline or a shadow ring on the focused
 * element, or on the box around it (a control whose own outline its box clips).
 */
function focusShown(page: Page): Promise<boolean> {
  return page.evaluate(() =>
    [document.activeElement, document.activeElement?.parentElement].some((el) => {
      const s = el ? getComputedStyle(el) : null;
      return !!s && ((s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0 && s.outlineColor !== 'rgba(0, 0, 0, 0)') || s.boxShadow !== 'none');
    }),
  );
}

/** Text fields, text areas and menus: their edge is what shows where to type (WCAG 1.4.11). */
const FIELDS = 'input:not([type=checkbox]):not([type=radio]):not([type=file]), select, textarea';

/** Each chart (an SVG image) on the page: its name, then the text its aria-describedby points to. */
function chartDescriptions(page: Page): Promise<string[]> {
  return page.locator('svg[role="img"]').evaluateAll((svgs) =>
    svgs.map((svg) => {
      const ids = (svg.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
      return `${svg.getAttribute('aria-label')}: ${ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ').trim()}`;
    }),
  );
}

/** Opens `path` in the admin's tab and waits for `ready` (a selector) to show. */
async function open(path: string, ready: string): Promise<void> {
  await page.goto(`${cockpit.url}${path}`);
  await page.locator(ready).first().waitFor();
}

test('the login page, signed out, and after a refused sign-in', async () => {
  const context = await browser.newContext();
  const tab = await context.newPage();
  await tab.goto(`${cockpit.url}/login`);
  await tab.getByLabel('User name').fill('admin');
  await tab.getByLabel('Password').fill('not the password');
  await tab.getByLabel('Password').press('Enter');
  await tab.getByRole('alert').filter({ hasText: 'Wrong user name or password.' }).waitFor();
  await assertAccessible(tab, '/login');
  await context.close();
});

test('the crawls list, one of them paused', async () => {
  await open('/crawls', '[data-testid="crawl-row"]');
  await page.getByRole('button', { name: 'Resume Slow site' }).waitFor();
  await assertAccessible(page, '/crawls');
});

test('a paused crawl’s page', async () => {
  await open(`/crawls/${crawl.paused}`, '[data-testid="capture-row"]');
  await page.getByRole('button', { name: 'Resume Slow site' }).waitFor();
  await assertAccessible(page, `/crawls/${crawl.paused}`);
});

test('a crawl’s page: counters with failure and exclusion reasons, charts, captures, a stored record, the crawl log, reports, annotations', async () => {
  await open(`/crawls/${crawl.plain}`, '[data-testid="capture-row"]');
  await page.getByTestId('failed-by-reason').waitFor();
  await page.locator('[data-testid="log-row"]').first().waitFor();
  await page.getByTestId('crawl-annotations').getByTestId('annotation').first().waitFor();
  await page.getByTestId('crawl-reports').locator('summary').click();
  await page.getByTestId('report-hosts').waitFor();
  // The keyboard opens a stored record and is taken there; closing it brings the focus back.
  const opener = page.getByTestId('capture-url').last();
  const openerName = await opener.getAttribute('aria-label');
  await opener.press('Enter');
  await page.getByTestId('record-warc-headers').waitFor();
  await assertFocusComes(page, () => Boolean(document.activeElement?.closest('[data-testid="capture-record"]')), true, 'the focus is in the record');
  await assertAccessible(page, `/crawls/${crawl.plain}`);
  const charts = await chartDescriptions(page);
  assert.equal(charts.length, 2);
  assert.match(charts[0]!, /^Pages per second \(average of the 5 s before each point\): .*pages\/s: latest [\d.]+ at \d+:\d\d, highest [\d.]+ at \d+:\d\d/);
  assert.match(charts[1]!, /^Responses by HTTP status class \(cumulative\): .*at \d+:\d\d: 2xx \d+/);
  // The status classes' stacked areas: each reads against the card, the whole palette (classes
  // this crawl has none of too), and each boundary between two of them shows without colour.
  const areas = '[data-testid="chart-status-classes"] path[data-series]';
  assert.ok((await page.locator(areas).count()) >= 2, 'a stack of two status classes or more');
  assert.deepEqual(
    {
      'areas too faint on the card': await faintGraphics(page, areas, 'fill'),
      'colours too faint on the card': await faintColours(page, '[data-testid="chart-status-classes"] svg', STATUS_CLASS_COLOURS),
      'neighbours told apart by colour alone': await blurredBoundaries(page, areas),
      'legend swatches unlike their areas': await legendMismatches(page, '[data-testid="chart-status-classes"]'),
    },
    { 'areas too faint on the card': [], 'colours too faint on the card': [], 'neighbours told apart by colour alone': [], 'legend swatches unlike their areas': [] },
    'the status-class chart (WCAG 1.4.11)',
  );
  await page.getByTestId('capture-record').getByRole('button', { name: 'Close' }).press('Enter');
  await page.getByTestId('capture-record').waitFor({ state: 'detached' });
  await assertFocusComes(page, () => document.activeElement?.getAttribute('aria-label'), openerName!, 'the focus is back on the capture that opened it');
});

test('a crawl’s feeds and recrawls: a feed polled fine, one answering 404, one robots.txt refuses; the last rounds', async () => {
  // Written as the engine writes them (its stores), for a crawl that is not running: a real crawl
  // would take the one-minute interval to show a round (test/e2e/feeds-recrawls.test.ts does).
  const feeds = ['http://feeds.example/news.xml', 'http://feeds.example/gone.xml', 'http://feeds.example/private/feed.xml'];
  const icd = await api.json<{ id: number }>('POST', '/api/icds', { name: 'Harbour feeds', seeds: ['http://feeds.example/'], coherence: { feeds, recrawlIntervalMinutes: 60 } });
  const db = openSqlite(join(cockpit.dataDir, 'tidemark.db'));
  const id = Number(db.prepare("INSERT INTO Crawl (icdId, definition, name, status) SELECT id, definition, name, 'stopped' FROM Icd WHERE id = ?").run(icd.id).lastInsertRowid);
  const now = Date.now();
  const store = new SqliteFeedMemoryStore(db, id);
  const memory = { lastPollAt: now, firstPollAt: now - 3_600_000, seen: [], published: [] };
  store.save(feeds[0]!, memory, { at: now, outcome: 'ok', status: 200, detail: null, listed: 20, fresh: 3 });
  store.save(feeds[1]!, memory, { at: now, outcome: 'http-error', status: 404, detail: 'answered 404', listed: 0, fresh: 0 });
  store.save(feeds[2]!, memory, { at: now, outcome: 'robots', status: null, detail: 'robots.txt disallows it', listed: 0, fresh: 0 });
  const rounds = new RecrawlState(db, id);
  for (const round of [1, 2]) rounds.finishRound(round, now - (3 - round) * 3_600_000, 0.5, { round, pages: 40, due: 12, backedOff: 3, fetched: 12, changed: 4, parentsFetched: 1, newLinks: 6, parentThreshold: 0.5 });
  db.close();
  await open(`/crawls/${id}`, '[data-testid="round-row"]');
  assert.equal(await page.getByTestId('feed-problem').count(), 2);
  await assertAccessible(page, `/crawls/${id}, feeds and recrawls`);
});

test('a focused crawl’s page: the relevance chart, the most relevant captures, the frontier with a score explained', async () => {
  await open(`/crawls/${crawl.focused}`, '[data-testid="relevant-capture"]');
  await page.getByTestId('relevance-summary').waitFor();
  const why = page.getByTestId('frontier-top').locator('summary').first();
  await why.waitFor();
  await why.click();
  await page.getByTestId('score-breakdown').first().waitFor();
  await assertAccessible(page, `/crawls/${crawl.focused}`);
  assert.match((await chartDescriptions(page)).find((d) => d.startsWith('Relevance'))!, /normalised mean similarity: latest [\d.]+ at \d+, highest [\d.]+ at \d+; harvest ratio: latest/);
});

test('the coherence view: the tree, a page’s visit and revisit side by side, the histogram', async () => {
  await open(`/crawls/${crawl.coherence}/coherence`, '[data-testid="tree-node"]');
  await page.locator(`[data-testid="tree-node"][data-url="${changing.origin}/menu"]`).click();
  await page.getByTestId('page-status').waitFor();
  await assertAccessible(page, `/crawls/${crawl.coherence}/coherence`);
  assert.equal(await page.getByRole('main').count(), 1, 'one main landmark');
  assert.deepEqual(await faintGraphics(page, '[data-testid="tree-node"] > path', 'fill'), [], 'tree markers too faint on white');
  assert.deepEqual(await faintGraphics(page, '[data-testid="rate-histogram"] rect', 'fill'), [], 'histogram bars too faint on the page');
  assert.match((await chartDescriptions(page)).find((d) => d.startsWith('Histogram'))!, /: no change seen: \d+ pages?; [\d.]+–[\d.]+ changes per day: \d+ pages?;/);
});

test('the coherence tree zooms and pans from the keyboard: buttons Tab reaches, and keys in the tree; Reset goes back', async () => {
  await open(`/crawls/${crawl.coherence}/coherence`, '[data-testid="tree-node"]');
  // The view's pan and scale, as the tree's group draws them.
  const view = async () => {
    const t = (await page.locator('svg[role="tree"] > g').getAttribute('transform')) ?? '';
    const [, x, y, k] = /translate\(([-\d.e]+),([-\d.e]+)\) scale\(([-\d.e]+)\)/.exec(t) ?? [];
    return { x: Number(x), y: Number(y), k: Number(k) };
  };
  const opened = await view();
  // In the tree, + and − zoom about the focused node, Shift and an arrow pan, 0 goes back.
  await page.locator('[data-testid="tree-node"][tabindex="0"]').focus();
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  const keyed = await view();
  assert.ok(keyed.k > opened.k * 2, `+ twice: scale ${opened.k} → ${keyed.k}`);
  await page.keyboard.press('Shift+ArrowLeft');
  const panned = await view();
  assert.ok(panned.x > keyed.x && panned.k === keyed.k, `Shift+← looks further left (x ${keyed.x} → ${panned.x}) without zooming`);
  await page.keyboard.press('Shift+ArrowUp');
  assert.ok((await view()).y > panned.y, 'Shift+↑ looks further up');
  await page.keyboard.press('-');
  assert.ok((await view()).k < keyed.k, '−');
  await page.keyboard.press('0');
  assert.deepEqual(await view(), opened, '0 goes back to the opening view');
  // From the search field, Tab reaches the zoom buttons, named for screen readers, before the tree.
  const focusedName = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent?.trim());
  await page.getByTestId('tree-search').focus();
  await page.keyboard.press('Tab');
  assert.equal(await focusedName(), 'Zoom in');
  await page.keyboard.press('Enter');
  const zoomedIn = await view();
  assert.ok(zoomedIn.k > opened.k, `Zoom in: scale ${opened.k} → ${zoomedIn.k}`);
  await page.getByRole('status').filter({ hasText: `${Math.round(zoomedIn.k * 100)} %` }).waitFor();
  await page.keyboard.press('Tab');
  assert.equal(await focusedName(), 'Zoom out');
  await page.keyboard.press(' ');
  assert.ok((await view()).k < zoomedIn.k, 'Zoom out');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  assert.equal(await focusedName(), 'Reset zoom');
  await page.keyboard.press('Enter');
  assert.deepEqual(await view(), opened, 'Reset zoom goes back to the opening view');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('role')), 'treeitem', 'then the tree');
  await assertAccessible(page, `/crawls/${crawl.coherence}/coherence, zoomed from the keyboard`);
});

test('the coherence tree keeps the node the keyboard focuses in view, and tells each node its level and place', async () => {
  // A root with 60 pages under it: more rows than the tree's 700 px show at once.
  const icd = await api.json<{ id: number }>('POST', '/api/icds', { name: 'Wide capture', seeds: ['http://wide.example/'], coherence: { mode: 'visit-revisit' } });
  const db = openSqlite(join(cockpit.dataDir, 'tidemark.db'));
  const wideId = Number(db.prepare("INSERT INTO Crawl (icdId, definition, name, status) SELECT id, definition, name, 'stopped' FROM Icd WHERE id = ?").run(icd.id).lastInsertRowid);
  const insert = db.prepare("INSERT INTO CoherencePage (crawlId, url, parentUrl, depth, mime, visitedAt, visit, visitText, status) VALUES (?, ?, ?, ?, 'text/html', ?, '{}', '', 'unchanged')");
  const now = sqlDate(new Date());
  db.transaction(() => {
    insert.run(wideId, 'http://wide.example/', null, 0, now);
    for (let i = 0; i < 60; i++) insert.run(wideId, `http://wide.example/p${String(i).padStart(2, '0')}`, 'http://wide.example/', 1, now);
  })();
  db.close();
  await open(`/crawls/${wideId}/coherence`, '[data-testid="tree-node"]');
  const node = (url: string) => page.locator(`[data-testid="tree-node"][data-url="${url}"]`);
  // The focused node lies within the tree's box and within the window.
  const focusInView = () => {
    const at = document.activeElement!.getBoundingClientRect();
    const box = document.activeElement!.closest('svg')!.getBoundingClientRect();
    return at.top >= Math.max(0, box.top) && at.bottom <= Math.min(window.innerHeight, box.bottom) && at.left >= box.left && at.right <= box.right;
  };
  await node('http://wide.example/').focus();
  for (const key of ['End', 'Home', 'End', 'ArrowUp']) {
    await page.keyboard.press(key);
    const shown = await page.waitForFunction(focusInView, undefined, { timeout: 5_000 }).then(() => true, () => false);
    assert.ok(shown, `after ${key}, ${await page.evaluate(() => document.activeElement?.getAttribute('data-url'))} is out of view`);
  }
  // Drawn flat, the tree says each node's depth and its place among its siblings.
  const place = (url: string) => node(url).evaluate((n) => ['aria-level', 'aria-posinset', 'aria-setsize'].map((a) => n.getAttribute(a)));
  assert.deepEqual(await place('http://wide.example/'), ['1', '1', '1']);
  assert.deepEqual(await place('http://wide.example/p07'), ['2', '8', '60']);
});

test('the Web objects of a crawl', async () => {
  await open(`/crawls/${crawl.forum}/objects`, '[data-testid="web-object"]');
  await assertAccessible(page, `/crawls/${crawl.forum}/objects`);
});

test('the crawl definitions', async () => {
  await open('/icds', '[data-testid="icd-row"]');
  await assertAccessible(page, '/icds');
});

test('a new crawl definition, with its validation errors shown', async () => {
  await open('/icds/new', '[data-testid="icd-form"]');
  await assertAccessible(page, '/icds/new');
  assert.deepEqual(await faintGraphics(page, FIELDS, 'border'), [], 'form fields whose edge is too faint to find');
  await page.getByLabel('Seed URLs').fill('harbour without scheme');
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByTestId('error-seeds').waitFor();
  for (const row of ['Add keyword', 'Add entity', 'Add URL pattern']) await page.getByRole('button', { name: row }).click();
  await page.getByTestId('advanced-settings').locator('summary').click();
  await page.getByLabel('Gzip level').fill('12');
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByTestId('error-gzipLevel').waitFor();
  await assertAccessible(page, '/icds/new, refused');
});

test('a focused crawl definition with its term review', async () => {
  await open(`/icds/${focusedIcd}`, '[data-testid="topic-term"]');
  // The Schedule section loads on its own, after the definition: axe checks its form (the time-zone field) only once it is there.
  await page.locator('#schedule-time-zone').waitFor();
  await assertAccessible(page, `/icds/${focusedIcd}`);
});

test('an ICD saved elsewhere meanwhile: the edit-conflict notice; then the session-ended notice', async () => {
  const { id } = await api.json<{ id: number }>('POST', '/api/icds', { name: 'Open twice', seeds: ['http://127.0.0.1:9/'] });
  const context = await browser.newContext();
  const tab = await context.newPage();
  await signIn(tab, cockpit.url, 'admin', ADMIN_PASSWORD);
  await tab.goto(`${cockpit.url}/icds/${id}`);
  await tab.getByLabel('Max pages', { exact: true }).fill('77');
  const stored = await api.json<{ definition: Record<string, unknown> }>('GET', `/api/icds/${id}`);
  await api.json('PUT', `/api/icds/${id}`, { ...stored.definition, description: 'Changed through the API' });
  await tab.getByRole('button', { name: 'Save', exact: true }).click();
  await tab.getByTestId('edit-conflict').waitFor();
  await assertAccessible(tab, `/icds/${id}, edit conflict`);
  await context.clearCookies();
  await tab.getByRole('button', { name: 'Overwrite with mine' }).click();
  await tab.getByTestId('session-ended').waitFor();
  await assertAccessible(tab, `/icds/${id}, session ended`);
  await context.close();
});

test('the knowledge base: the editor and its outline, the tester’s result on a phpBB page, the adapted rules; then an invalid edit', async () => {
  await open('/knowledge-base', '[data-testid="adapted-rule"]');
  await page.locator('[data-testid="kb-validation"][data-state="valid"]').waitFor();
  await page.getByTestId('kb-outline').locator('summary').click();
  await page.getByLabel('Page URL').fill('http://forum.example.org/viewtopic.php?t=1');
  await page.getByLabel('HTML', { exact: true }).fill(readFileSync('test/fixtures/aah/phpbb/viewtopic.html', 'utf8'));
  await page.getByTestId('run-tester').click();
  await page.getByTestId('tester-result').waitFor();
  await page.getByTestId('tester-navigation').first().locator('summary').click();
  await assertAccessible(page, '/knowledge-base');
  // From the outline (folded again), Tab reaches the XML, and the focus shows there.
  const outline = page.getByTestId('kb-outline').locator('summary');
  await outline.press('Enter');
  await outline.press('Tab');
  const editor = page.getByTestId('kb-xml');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'kb-xml');
  assert.ok(await focusShown(page), 'the focused XML editor shows its focus');
  await editor.fill((await editor.inputValue()).replace("//body[@id='phpbb']", "//body[@id='phpbb'"));
  await page.getByTestId('kb-error').first().waitFor();
  await assertAccessible(page, '/knowledge-base, invalid XML');
});

test('the exports of a crawl, with one ready and the selection form open', async () => {
  await open(`/exports?crawl=${crawl.plain}`, '[data-testid="export-file"]');
  await page.getByTestId('export-selection').locator('summary').click();
  await page.getByLabel('URL contains').fill('page');
  await page.getByTestId('selection-preview').filter({ hasText: 'match' }).waitFor();
  await assertAccessible(page, '/exports');
});

test('the users', async () => {
  await open('/users', '[data-testid="user-row"]');
  await assertAccessible(page, '/users');
});

test('the account, with a mismatched new password', async () => {
  await open('/account', 'form');
  await page.getByLabel('Current password').fill(ADMIN_PASSWORD);
  await page.getByLabel('New password', { exact: true }).fill('a-new-password');
  await page.getByLabel('New password again').fill('another-password');
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.getByTestId('error-repeat').waitFor();
  await assertAccessible(page, '/account');
});

test('the 404 page, for no page and for a crawl that does not exist', async () => {
  for (const path of ['/no-such-page', '/crawls/999999']) {
    await open(path, 'h1:text("Not found")');
    await assertAccessible(page, path);
  }
});

test('what a curator sees: no controls to run, design or export; notices where the role may not', async () => {
  const context = await browser.newContext();
  const tab = await context.newPage();
  await signIn(tab, cockpit.url, CURATOR.username, CURATOR.password);
  const visit = async (path: string, ...ready: string[]) => {
    await tab.goto(`${cockpit.url}${path}`);
    for (const selector of ready) await tab.locator(selector).first().waitFor();
    await assertAccessible(tab, `${path} (curator)`);
  };
  await visit('/crawls', '[data-testid="crawl-row"]');
  await visit(`/crawls/${crawl.plain}`, '[data-testid="capture-row"]');
  // The Schedule section too (what a curator sees of it), loaded after the definition.
  await visit(`/icds/${focusedIcd}`, '[data-testid="topic-term"]', '[data-testid="crawl-schedule"] >> text=Your role may view but not change');
  // The definition is shown to read, not to edit: its fields disabled, no Add or Remove, no "Edit" heading
  // (every field took typing, and leaving warned of unsaved edits that could never be saved).
  assert.equal(await tab.getByLabel('Name', { exact: true }).isDisabled(), true);
  assert.equal(await tab.getByLabel('Seed URLs', { exact: true }).isDisabled(), true);
  const adds = tab.locator('button', { hasText: /^Add (keyword|entity|URL pattern)$/ });
  assert.equal(await adds.count(), 3);
  assert.equal(await adds.filter({ visible: true }).count(), 0);
  assert.doesNotMatch(await tab.getByRole('heading', { level: 1 }).innerText(), /^Edit/);
  await visit('/knowledge-base', '[data-testid="adapted-rule"]');
  await visit('/exports', '[data-testid="forbidden"]');
  await visit('/users', '[data-testid="forbidden"]');
  await context.close();
});
