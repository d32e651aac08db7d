import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createAahEngine, parseHtml, parseKnowledgeBase } from '../../../worker/aah/index';
import { DEFAULT_KB_PATH } from '../../../worker/aah/default-kb';
import { buildVocabularies } from '../../../worker/aah/vocabulary';
import { createPageContext } from '../../../worker/aah/page-context';
import { MAX_RELAX_EVALUATIONS, relaxAction } from '../../../worker/aah/relaxation';
import { XPathEvaluator, XPathTimeBudgetError } from '../../../worker/aah/xpath-eval';
import { AahRunner } from '../../../worker/crawler/aah-runner';
import { aahStage } from '../../../worker/crawler/stages/aah-stage';
import type { CrawlContext, CrawlItem } from '../../../worker/crawler/stage';

/**
 * A phpBB topic whose posts the shipped rules no longer find (their class renamed), with 300
 * tables nested inside one another before </body>: every `//` step of a rule then walks a chain
 * hundreds deep, and relaxing a failed rule tried rewrites × objects × fields (~700,000 XPath
 * evaluations and 10 s on a page like it) before the budgets.
 */
const KB_XML = readFileSync(DEFAULT_KB_PATH, 'utf8');
const topic = readFileSync(new URL('../../fixtures/aah/phpbb/viewtopic.html', import.meta.url), 'utf8');
const broken = topic.replaceAll('class="post', 'class="p0st');
const hostile = broken.replace('</body>', `${'<table><tr><td>x'.repeat(300)}</body>`);
const URL_ = 'http://127.0.0.1/viewtopic.php?t=1';

function kb() {
  const parsed = parseKnowledgeBase(KB_XML);
  assert.ok(parsed.ok);
  return parsed.kb;
}

test('a relaxation stops at its evaluation budget; on an ordinary page it needs a fraction of it', () => {
  const base = kb();
  const vocab = buildVocabularies(base);
  const spent = (html: string, appId: string, actionId: string): number => {
    const app = base.applications.find((a) => a.id === appId)!;
    const action = app.levels.flatMap((l) => l.extract).find((a) => a.id === actionId)!;
    const ev = new XPathEvaluator();
    const page = createPageContext({ url: URL_, html }, ev);
    relaxAction(action, vocab.get(app.category)!, page, 5);
    return ev.evaluations;
  };
  const onHostile = spent(hostile, 'wordpress', 'post');
  assert.ok(onHostile >= MAX_RELAX_EVALUATIONS, `the budget was not reached (${onHostile}): the page no longer tests it`);
  // Past the budget, at most one rewrite's evaluations (≤ 500 objects, for each field) finish.
  assert.ok(onHostile < MAX_RELAX_EVALUATIONS + 2_000, `spent ${onHostile}`);
  assert.ok(spent(broken, 'phpbb', 'post') < MAX_RELAX_EVALUATIONS / 4);
});

test('evaluations past a deadline throw, and the deadline ends with its scope', () => {
  const ev = new XPathEvaluator();
  const page = createPageContext({ url: URL_, html: topic }, ev);
  assert.throws(() => ev.withDeadline(-1, () => ev.select('//a', page.dom)), XPathTimeBudgetError);
  assert.ok(ev.withDeadline(60_000, () => ev.select('//a', page.dom)).length > 0);
  assert.ok(ev.select('//a', page.dom).length > 0, 'no deadline outside withDeadline');
});

/**
 * A clock that moves 1 ms per reading, i.e. per XPath evaluation and per 10,000 node visits
 * within one: budgets then count work, not time, so the test does not depend on the machine's
 * speed (this page takes 1,164 evaluations, the fixture's ordinary topic 17; under wall-clock
 * time a cold first run took 19 ms for the ordinary page, against a 20 ms budget).
 */
function workClock(): () => number {
  let t = 0;
  return () => t++;
}

test('a page too slow to analyse is skipped, and the crawl log note and the recrawl check say so', () => {
  const engine = createAahEngine(kb(), { maxAnalysisMs: 200, clock: workClock() });
  const started = performance.now();
  const analysis = engine.analysePage({ url: URL_, html: hostile });
  assert.equal(analysis.skipped, 'too-slow');
  assert.deepEqual([analysis.follow, analysis.objects], [[], []]);
  assert.ok(performance.now() - started < 2_000, 'the budget did not stop the analysis');
  // The same engine analyses the next, ordinary, page as usual (the deadline ended with the page).
  const ordinary = engine.analysePage({ url: URL_, html: topic });
  assert.equal(ordinary.skipped, undefined);
  assert.equal(ordinary.application?.id, 'phpbb');
  assert.ok(ordinary.objects.length > 0);

  const runner = AahRunner.create(KB_XML, 'keep', null, { engine: { maxAnalysisMs: 200, clock: workClock() } });
  // The AAH stage notes it on the item, and the commit writes the note into the crawl log entry.
  const item = { url: URL_, host: '127.0.0.1', depth: 0, priority: 0, lease: null, html: Buffer.from(hostile), exchange: { status: 200, headers: {} }, links: [] } as unknown as CrawlItem;
  aahStage.process(item, { aah: runner } as CrawlContext);
  assert.match(item.note ?? '', /^aah skipped: page too slow to analyse/);

  const page = { url: URL_, host: '127.0.0.1', status: 200, headers: { 'content-type': 'text/html' }, html: Buffer.from(hostile) };
  const check = runner.recrawl(page, [{ type: 'post', fields: { title: 'a', body: 'b' } }]);
  // Not "structure-changed": nothing was compared.
  assert.deepEqual([check.verdict, check.comparison], [null, null]);
  assert.match(check.summary ?? '', /^aah skipped: page too slow to analyse/);
});

/**
 * One expression that walks the page twice for each of its divs: 600 divs take ~730,000 node
 * visits (6,000 divs held a crawl's thread for a minute, against a 1 s budget, when the deadline
 * was only checked between evaluations).
 */
const SLOW_XPATH = '//div[count(preceding::div) > count(following::div)]';
const divs = `<html><body>${'<div>x</div>'.repeat(600)}</body></html>`;

test('an evaluation still running at the deadline stops soon after it, not at its end', () => {
  let readings = 0;
  const ev = new XPathEvaluator(() => readings++);
  const dom = parseHtml(divs);
  assert.throws(() => ev.withDeadline(20, () => ev.test(SLOW_XPATH, dom)), XPathTimeBudgetError);
  // Readings 0 (the deadline set at 20) and 1 (the evaluation's start), then one per 10,000
  // visits until the clock passes 20.
  assert.equal(readings, 22);
  // Under a budget it fits in, the same evaluation runs to its end.
  assert.equal(ev.withDeadline(1_000, () => ev.test(SLOW_XPATH, dom)), true);
});

test('a page on which one rule\'s evaluation outlasts the budget is skipped as too slow, in the crawl log too', () => {
  const xml = `<knowledge-base version="1"><application id="x" name="X" category="blog"><detect><xpath>${SLOW_XPATH.replace('>', '&gt;')}</xpath></detect><navigate id="n" select="//a"/></application></knowledge-base>`;
  const parsed = parseKnowledgeBase(xml);
  assert.ok(parsed.ok);
  let readings = 0;
  const engine = createAahEngine(parsed.kb, { maxAnalysisMs: 50, clock: () => readings++ });
  const analysis = engine.analysePage({ url: URL_, html: divs });
  assert.equal(analysis.skipped, 'too-slow');
  assert.equal(analysis.application, undefined);
  assert.ok(readings <= 53, `the analysis went on past its deadline (${readings} clock readings)`);

  const runner = AahRunner.create(xml, 'keep', null, { engine: { maxAnalysisMs: 50, clock: workClock() } });
  const item = { url: URL_, host: '127.0.0.1', depth: 0, priority: 0, lease: null, html: Buffer.from(divs), exchange: { status: 200, headers: {} }, links: [] } as unknown as CrawlItem;
  aahStage.process(item, { aah: runner } as CrawlContext);
  assert.match(item.note ?? '', /^aah skipped: page too slow to analyse/);
});
