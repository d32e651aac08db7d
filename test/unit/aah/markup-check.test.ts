import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAahEngine, detectApplication, loadDefaultKnowledgeBaseXml, parseKnowledgeBase, XPathEvaluator } from '../../../worker/aah/index';
import { markupIndex, markupMayDetect } from '../../../worker/aah/markup-check';
import { needleCheck } from '../../../worker/aah/xpath-prefilter';
import { createPageContext } from '../../../worker/aah/page-context';
import { extractHtml } from '../../../worker/extract';

const shipped = async () => {
  const parsed = parseKnowledgeBase(await loadDefaultKnowledgeBaseXml());
  assert.ok(parsed.ok);
  return parsed.kb;
};
const PLAIN = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Harbour</title></head><body><h1>Tides</h1><p>harbour tide <a href="/p/1.html">bulletin</a></p></body></html>';
const FIXTURES = join(import.meta.dirname, '../../fixtures/aah');

test('every fixture page an application is detected on passes the markup check; a plain page does not', async () => {
  const kb = await shipped();
  const ev = new XPathEvaluator();
  let detected = 0;
  for (const app of readdirSync(FIXTURES)) {
    for (const file of readdirSync(join(FIXTURES, app)).filter((f) => f.endsWith('.html'))) {
      const html = readFileSync(join(FIXTURES, app, file), 'utf8');
      const url = `http://${app}.test/${file}`;
      if (!detectApplication(kb, createPageContext({ url, html }, ev)).application) continue;
      detected++;
      const markup = extractHtml(html, url).markup;
      assert.ok(markupMayDetect(kb, ev, { markup, source: () => html, url, headers: {} }), `${app}/${file}`);
    }
  }
  assert.ok(detected >= 12, `${detected} fixture pages detected`);
  assert.equal(markupMayDetect(kb, ev, { markup: extractHtml(PLAIN, 'http://plain.test/').markup, source: () => PLAIN, url: 'http://plain.test/', headers: {} }), false);
});

test('markup needles: decoded attribute values, lower-case names, text from the source with references decoded, the implied html root', () => {
  const html = '<DIV Data-X="a&amp;b" class="&#87;ordPress"><script>var s = "SESSION&#85;RL";</script><p>caf&eacute;</p></DIV>';
  const occurs = needleCheck(markupIndex(extractHtml(html, 'http://x.test/').markup, () => html));
  assert.ok(occurs('ediv') && occurs('ehtml') && !occurs('earticle'));
  assert.ok(occurs('ndata-x') && !occurs('nid'));
  assert.ok(occurs('aa&b') && occurs('aWordPress') && !occurs('acafé'), 'attribute values as the DOM holds them');
  assert.ok(occurs('vcafé') && occurs('vWordPress'), 'text needles: source, decoded');
});

test('a host of plain pages is settled without a DOM; a WordPress page is still detected', async () => {
  const engine = createAahEngine(await shipped(), { detectionAttempts: 3 });
  const markup = extractHtml(PLAIN, 'http://plain.test/').markup;
  for (let i = 0; i < 3; i++) {
    const r = engine.analysePage({ url: `http://plain.test/p/${i}.html`, html: PLAIN, markup });
    assert.equal(r.detectionRan, true);
    assert.equal(engine.hostApplication('plain.test'), i < 2 ? undefined : null);
  }
  const wp = readFileSync(join(FIXTURES, 'wordpress/single.html'), 'utf8');
  const r = engine.analysePage({ url: 'http://wp.test/2024/05/tide/', html: wp, markup: extractHtml(wp, 'http://wp.test/').markup });
  assert.equal(r.application?.id, 'wordpress');
  assert.ok(r.objects.length > 0);
});
