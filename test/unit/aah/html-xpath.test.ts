import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileXPath, parseHtml, XPathEvaluator } from '../../../worker/aah/index';
import { nodeText } from '../../../worker/aah/xpath-eval';
import { xpathTree } from '../../../worker/aah/xpath-tree';

const SOUP = `<!DOCTYPE html><p>stray<html lang=en><head><title>T &amp; x</title></head>
<body class="home  single post-x"><div id=main><ul><li>one<li>two <a href=x>link</a></ul>
<p>para one<p>para <b>two</b><br>three</div><table><tr><td>1<td>2</table>
<div class="post entry"><h2>Title</h2><p>Text &eacute;t&eacute;</p></div><img src=i.png></body></html>`;

const ev = new XPathEvaluator();
const doc = parseHtml(SOUP);
const texts = (expr: string): string[] => ev.select(expr, doc).map(nodeText);

test('tag soup parses leniently: implied end tags, unquoted attributes, entities', () => {
  assert.deepEqual(texts('//li'), ['one', 'two link']);
  assert.deepEqual(texts('//td'), ['1', '2']);
  assert.deepEqual(texts('//title'), ['T & x']);
  assert.deepEqual(texts("//div[@id='main']/p"), ['para one', 'para two\nthree']);
  assert.deepEqual(texts("//div[contains(@class,'post')]/p"), ['Text été']);
  assert.equal(ev.select('/html', doc).length, 1, 'one html root, whatever came before <html>');
  assert.equal(ev.string('/html/@lang', doc), 'en');
});

test('a <body>, <head> or </body> inside the page (pasted into a post) leaves the post whole, as browsers do', () => {
  // Once the page has its body, browsers ignore another <body> (adding the attributes the body
  // lacks), a late <head> (its <title> stays where it is), and </body>, which closes nothing: the
  // post keeps what follows them.
  const pasted = parseHtml(`<html><head><title>t</title></head><body id="phpbb"><div class="post"><p>before</p>
<body class="pasted" id="other"><head><title>x</title></head><p>after</p></body><p>still the post</p></div>
<div class="post"><p>second</p></div></body></html>`);
  const posts = ev.select("//div[@class='post']", pasted).map(nodeText);
  assert.deepEqual(posts, ['before\nx\nafter\nstill the post', 'second']);
  assert.equal(ev.select('//body', pasted).length, 1);
  assert.equal(ev.string('//body/@id', pasted), 'phpbb');
  assert.equal(ev.string('//body/@class', pasted), 'pasted');
  // Before the body, a stray open element still does not swallow the page.
  assert.deepEqual(texts("//div[contains(@class,'post')]/p"), ['Text été']);
  assert.equal(ev.select('/html/body', doc).length, 1);
});

test('XPath 1.0: contains, starts-with, normalize-space, positions, union, ancestor axes', () => {
  assert.equal(ev.select("//body[contains(concat(' ',normalize-space(@class),' '),' single ')]", doc).length, 1);
  assert.deepEqual(texts("//p[starts-with(normalize-space(.),'para')]"), ['para one', 'para two\nthree']);
  assert.deepEqual(texts('//li[2]/a/@href'), ['x']);
  assert.deepEqual(texts('//td[position()=last()]'), ['2']);
  assert.deepEqual(texts('//title | //h2'), ['T & x', 'Title'], 'union in document order');
  assert.deepEqual(texts('//a/ancestor::div/@id'), ['main']);
  assert.equal(ev.string('count(//p)', doc), '4');
  assert.equal(ev.test("//a[normalize-space(.)='link']", doc), true);
  assert.equal(ev.test("//a[normalize-space(.)='nope']", doc), false);
});

test('text keeps block boundaries and drops scripts', () => {
  const d = parseHtml('<div id=x>a<script>var s = 1;</script><p>b</p>c<br>d <span>e</span><span>f</span></div>');
  assert.equal(nodeText(ev.select("//div[@id='x']", d)[0]), 'a\nb\nc\nd ef');
});

test('pathological nesting is flattened instead of overflowing the stack', () => {
  const d = parseHtml('<div>'.repeat(5000) + 'deep' + '</div>'.repeat(5000));
  assert.equal(ev.string('count(//div)', d), '5000');
  assert.equal(ev.string("count(//div[text()='deep'])", d), '1');
});

test('compileXPath rejects syntax errors and functions outside XPath 1.0, accepts and/or before a parenthesis', () => {
  assert.throws(() => compileXPath('//a[@href'), /invalid XPath/);
  assert.throws(() => compileXPath("//a[ends-with(@href,'x')]"), /unknown function ends-with\(\)/);
  assert.throws(() => compileXPath('   '), /empty XPath/);
  assert.doesNotThrow(() => compileXPath("//a[@x and (@y or @z)] | //b[not(@c)]"));
  assert.doesNotThrow(() => compileXPath("//a[contains(@title,'f(x)')]"), 'calls inside literals are text');
});

test('a node-set takes a long node list in linear time, each node looked up once, not in all the nodes before it', () => {
  // 150,000 links selected by one rule took seconds in comparisons the deadline could not stop.
  const NodeSet = xpathTree.XNodeSet as unknown as new () => { nodes: object[]; size: number; addArray(nodes: object[]): void };
  const set = new NodeSet();
  let reads = 0;
  set.nodes = new Proxy([], {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver);
    },
  });
  const nodes = Array.from({ length: 5_000 }, (_, i) => ({ i }));
  set.addArray([...nodes, ...nodes.slice(0, 100)]);
  assert.deepEqual([set.size, set.nodes.length, set.nodes[4_999]], [5_000, 5_000, nodes[4_999]]);
  assert.ok(reads < 10_000, `${reads} reads of the nodes already in the set`);
  assert.equal(ev.select('//a | //a', parseHtml('<a>x</a>'.repeat(1_000))).length, 1_000);
});

test('compileXPath accepts up to 2,000 characters and 32 nested brackets or parentheses, and refuses more', () => {
  const ofLength = (n: number): string => `//a[@x='${'x'.repeat(n - 10)}']`;
  assert.equal(ofLength(2_000).length, 2_000);
  assert.doesNotThrow(() => compileXPath(ofLength(2_000)));
  assert.throws(() => compileXPath(ofLength(2_001)), /: 2,001 characters, over the limit of 2,000$/);
  const nested = (depth: number): string => `//a${'[b'.repeat(depth)}${']'.repeat(depth)}`;
  assert.doesNotThrow(() => compileXPath(nested(32)));
  assert.throws(() => compileXPath(nested(33)), /nested 33 deep, over the limit of 32$/);
  assert.doesNotThrow(() => compileXPath(`//a[@title='${'(['.repeat(40)}']`), 'brackets inside literals are text');
});
