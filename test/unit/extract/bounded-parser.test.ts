import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Parser, type Handler } from 'htmlparser2';
import { boundedParser, MAX_OPEN_ELEMENTS } from '../../../worker/extract/bounded-parser';
import { extractHtml } from '../../../worker/extract';

/** Every event a parse reports, in order, and the most elements it ever had open. */
function events(make: (h: Partial<Handler>) => Parser, html: string) {
  const log: string[] = [];
  let open = 0;
  let maxOpen = 0;
  const parser = make({
    onopentag: (name, attribs) => {
      log.push(`<${name} ${JSON.stringify(attribs)}>`);
      maxOpen = Math.max(maxOpen, ++open);
    },
    ontext: (text) => log.push(text),
    onclosetag: (name, implied) => {
      log.push(`</${name}${implied ? ' implied' : ''}>`);
      open--;
    },
  });
  parser.end(html);
  return { log, maxOpen };
}

const plain = (xmlMode: boolean) => (h: Partial<Handler>) => new Parser(h, { xmlMode });
const bounded = (xmlMode: boolean) => (h: Partial<Handler>) => boundedParser(h, { xmlMode });

test('below the bound, the parse reports exactly what htmlparser2 reports', () => {
  for (const f of ['wordpress/single.html', 'mediawiki/article.html', 'phpbb/viewtopic.html']) {
    const html = readFileSync(new URL(`../../fixtures/aah/${f}`, import.meta.url), 'utf8');
    assert.deepEqual(events(bounded(false), html), events(plain(false), html), f);
  }
  const xml = '<urlset><url><loc>http://a/</loc></url><url><loc>http://b/</loc></url></urlset>';
  assert.deepEqual(events(bounded(true), xml), events(plain(true), xml));
  const nested = '<div>'.repeat(MAX_OPEN_ELEMENTS - 1) + '<p>deep</p>';
  assert.deepEqual(events(bounded(false), nested), events(plain(false), nested));
});

test('past the bound, a new element closes the innermost open one and becomes its sibling', () => {
  const html = '<div>'.repeat(MAX_OPEN_ELEMENTS) + '<span>x</span><br>';
  const { log, maxOpen } = events(bounded(false), html);
  assert.equal(maxOpen, MAX_OPEN_ELEMENTS);
  const at = log.indexOf('<span {}>');
  // The innermost <div> closed (implied) just before <span> opened; a void <br> closes nothing.
  assert.equal(log[at - 1], '</div implied>');
  assert.deepEqual(log.slice(at, at + 4), ['<span {}>', 'x', '</span>', '<br {}>']);
  assert.equal(log.filter((e) => e === '<div {}>').length, MAX_OPEN_ELEMENTS);
  assert.equal(events(plain(false), html).maxOpen, MAX_OPEN_ELEMENTS + 1);
});

test('a page nested 100,000 deep keeps its links, texts and contexts, with no more than the bound open', () => {
  const html = '<html><body>' + '<div>'.repeat(100_000) + '<p>Harbour news: <a href="/deep">the deep link</a> at last.</p>';
  const out = extractHtml(html, 'http://127.0.0.1/', { queryHandling: 'keep', text: true });
  assert.deepEqual(out.links.map((l) => [l.url, l.anchorText, l.context]), [['http://127.0.0.1/deep', 'the deep link', 'Harbour news: the deep link at last.']]);
  assert.equal(events(bounded(false), html).maxOpen, MAX_OPEN_ELEMENTS);
  // Sitemaps and feeds use it too (XML mode).
  assert.equal(events(bounded(true), '<a>'.repeat(5_000)).maxOpen, MAX_OPEN_ELEMENTS);
});
