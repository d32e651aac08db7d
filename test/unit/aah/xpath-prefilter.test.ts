import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileXPath, loadDefaultKnowledgeBaseXml, parseHtml, parseKnowledgeBase, XPathEvaluator } from '../../../worker/aah/index';
import { indexDocument, mayMatch, occursIn, requiredStrings } from '../../../worker/aah/xpath-prefilter';

const required = (expr: string) => requiredStrings(compileXPath(expr));

test('required needles: literals compared with node text, element and attribute names, through and / or / union / predicates', () => {
  assert.deepEqual(required("//meta[@name='generator' and starts-with(@content,'WordPress')]"), [['emeta'], ['agenerator'], ['aWordPress']]);
  assert.deepEqual(required("//body[contains(concat(' ',normalize-space(@class),' '),' single ')]"), [['ebody'], ['asingle']]);
  // A union needs one side: each clause takes a needle of either.
  const union = required("//a[contains(@href,'ucp.php?mode=login') or contains(@href,'register')] | //B[@id='x-y']");
  assert.ok(union.length > 0 && union.every((c) => c.some((n) => ['ea', 'aucp.php?mode=login', 'aregister'].includes(n)) && c.some((n) => ['eb', 'ax-y'].includes(n))));
  assert.deepEqual(required("//*[contains(@class,'post')]//*[contains(@class,'author')][1]"), [['apost'], ['aauthor']]);
  assert.deepEqual(required("//p[normalize-space(.)='two  words here']"), [['ep'], ['vwords']], 'the longest whitespace-free piece, in any text');
  assert.deepEqual(required("//script[contains(.,'SESSIONURL')]"), [['escript'], ['vSESSIONURL']]);
  assert.deepEqual(required('//article[.//time]'), [['earticle'], ['etime']]);
  assert.deepEqual(required('//*[@data-drupal-link-system-path]'), [['ndata-drupal-link-system-path']]);
});

test('required needles: nothing from what the analysis cannot vouch for', () => {
  for (const expr of [
    "not(//*[@id='x'])",
    "//*[@id!='x']",
    "//*[contains(translate(@class,'ABC','abc'),'abc')]",
    "//*[contains(concat('pre',@class),'prefix')]", // 'prefix' may be 'pre' + 'fix'
    "//*[contains(concat(@id,@class),'ab')]",
    "//*[contains(@class,' ')]",
    "//*[substring(@href,1,4)='http']",
    "//*[@id='x'] | //*",
    '//*[1]',
    '//@xml:lang',
    "count(//a[@id='x']) = 0",
  ]) assert.deepEqual(required(expr), [], expr);
});

test('document index: text of all text nodes in order, attribute values, element and attribute names', () => {
  const doc = parseHtml('<p class="a b" data-X="1">sess<b>ion</b>URL</p><script>var x="y"</script>');
  const index = indexDocument(doc);
  const occurs = (n: string) => occursIn(index, n);
  assert.ok(occurs('vsessionURL'), 'an element string value spans its children');
  assert.ok(occurs('vvar x="y"') && occurs('va b'));
  assert.ok(occurs('aa b') && !occurs('asession'), 'attribute needles are looked for in attribute values only');
  assert.ok(occurs('escript') && !occurs('ediv') && occurs('ndata-x') && !occurs('nid'));
  assert.equal(mayMatch([['vsessionURL'], ['eb', 'vzzz']], occurs), true);
  assert.equal(mayMatch([['vsessionURL'], ['vzzz']], occurs), false);
});

// Every expression of the shipped knowledge base, on every fixture page and on pages made to
// contain its strings in unusual places: the evaluator with the prefilter answers exactly as
// the XPath engine alone does.
test('the prefilter never changes an answer (shipped knowledge base × fixture pages)', async () => {
  const kb = parseKnowledgeBase(await loadDefaultKnowledgeBaseXml());
  const expressions = new Set<string>();
  const collect = (v: unknown, key = ''): void => {
    if (typeof v === 'string' && (key === 'expression' || key === 'select')) expressions.add(v);
    else if (Array.isArray(v)) v.forEach((x) => collect(x));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) collect(x, k);
  };
  collect(kb);
  assert.ok(expressions.size > 100, `${expressions.size} expressions`);
  const dir = join(import.meta.dirname, '../../fixtures/aah');
  const pages = readdirSync(dir).flatMap((app) => readdirSync(join(dir, app)).map((f) => readFileSync(join(dir, app, f), 'utf8')));
  pages.push(
    '<html><body class="x single"><!-- WordPress --><div id="main-outlet">a</div><p>WordPress</p></body></html>',
    '<body id="phpbb"><a href="ucp.php?mode=login">in</a><div class="post"><span class="author">A</span></div></body>',
  );
  const ev = new XPathEvaluator();
  let matched = 0;
  let skipped = 0;
  for (const html of pages) {
    const doc = parseHtml(html);
    const index = indexDocument(doc);
    for (const expr of expressions) {
      const compiled = compileXPath(expr);
      const truth = compiled.evaluateBoolean({ node: doc });
      assert.equal(ev.test(expr, doc), truth, expr);
      const nodes = compiled.evaluate({ node: doc });
      assert.equal(ev.select(expr, doc).length, nodes.constructor.name === 'XNodeSet' ? nodes.nodeset().toArray().length : 0, expr);
      if (truth) matched++;
      if (!mayMatch(requiredStrings(compiled), (n) => occursIn(index, n))) skipped++;
    }
  }
  assert.ok(matched > 100, `${matched} matches`);
  assert.ok(skipped > matched, `most (page, expression) pairs are answered without evaluation: ${skipped}`);
});
