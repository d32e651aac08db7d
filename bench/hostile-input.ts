/**
 * Hostile input: does any parser a crawl feeds with what servers send take time growing faster
 * than its input? Each shape (deep nesting, runs that made a scanner backtrack, pages of
 * thousands of links, tables nested for the AAH's XPath rules…) is measured at three sizes, n, 2n
 * and 4n (best of 5 runs each), with n chosen so that the smallest run takes at least 30 ms;
 * the growth t(4n) ÷ t(n) is 4 for linear work. Target: at most 6 for every shape (linear, with
 * room for GC and noise).
 * Writes bench/results/hostile.json and its section of bench/README.md.
 * Run: npm run bench:hostile
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractFromResponse, parseFeed, parseSitemap } from '../worker/extract';
import { canonicalize } from '../worker/url';
import { parseRobotsRules } from '../worker/robots/robots-rules';
import { createAahEngine, parseKnowledgeBase } from '../worker/aah';
import { DEFAULT_KB_PATH } from '../worker/aah/default-kb';
import { createFocusScorer, pageFromHtml, scorePage } from '../worker/crawler/focus-scorer';
import { parseIcd } from '../worker/icd/schema';
import { createTextAnalyzer } from '../worker/text';
import { benchCommit, machineInfo } from './support/run-info';
import { writeReadmeSection } from './support/readme-section';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PAGE = 'http://127.0.0.1/dir/page.html';

const response = (type: string) => (body: string) => () =>
  extractFromResponse({ url: PAGE, status: 200, headers: { 'content-type': type }, body: Buffer.from(body), maxDecodedBytes: 1e9 }).links.length;
const html = response('text/html');
const css = response('text/css');

const kb = parseKnowledgeBase(readFileSync(DEFAULT_KB_PATH, 'utf8'));
if (!kb.ok) throw new Error('the shipped knowledge base does not parse');
// No time budget: the point is how the work grows, not where the budget cuts it.
const aah = (page: string) => () => createAahEngine(kb.kb, { maxAnalysisMs: Infinity }).analysePage({ url: 'http://127.0.0.1/viewtopic.php?t=1', html: page }).objects.length;
const phpbbTopic = readFileSync(join(root, 'test/fixtures/aah/phpbb/viewtopic.html'), 'utf8');
const brokenTopic = phpbbTopic.replaceAll('class="post', 'class="p0st');
const scorer = createFocusScorer(parseIcd({ name: 'bench', seeds: [PAGE], focus: { enabled: true, keywords: [{ term: 'harbour' }] } }).focus);
const text = createTextAnalyzer();
let seed = 7;
const word = (): string => {
  let w = '';
  for (let k = 3 + (seed % 7); k > 0; k--) w += String.fromCharCode(97 + ((seed = (seed * 16807) % 2147483647) % 26));
  return w;
};
const words = (n: number): string => Array.from({ length: n }, word).join(' ');
const links = (n: number, sep = ' ') => Array.from({ length: n }, (_, i) => `<a href="/p${i}">l${i}</a>`).join(sep);

interface Shape {
  name: string;
  /** The work for input size n (the input is built before timing). */
  make(n: number): () => unknown;
  /** Input characters for size n. */
  chars(n: number): number;
}

const shape = (name: string, input: (n: number) => string, run: (input: string) => () => unknown): Shape => ({
  name,
  make: (n) => run(input(n)),
  chars: (n) => input(n).length,
});

const SHAPES: Shape[] = [
  shape('HTML: <div> nested n deep', (n) => `<html><body>${'<div>'.repeat(n)}<a href="/x">x</a>`, html),
  shape('HTML: <ul><li> nested n deep', (n) => '<ul><li>'.repeat(n), html),
  shape('HTML: <a> nested n deep', (n) => '<a href="/x">'.repeat(n), html),
  shape('HTML: n links in one block, no spaces', (n) => links(n, ''), html),
  shape('HTML: n links in one block', (n) => links(n), html),
  shape('HTML: n unclosed <p>', (n) => '<p>word '.repeat(n), html),
  shape('HTML: srcset of n candidates', (n) => `<img srcset="${Array.from({ length: n }, (_, i) => `/i${i}.png ${i}w`).join(', ')}">`, html),
  shape('HTML: n <base> elements', (n) => `${'<base href="/x/">'.repeat(n)}<a href="y">y</a>`, html),
  shape('HTML: style attribute of n "url("', (n) => `<p style="${'url('.repeat(n)}">`, html),
  shape('CSS: "url(" repeated n times', (n) => 'url('.repeat(n), css),
  shape('CSS: "url(" and n spaces', (n) => `url(${' '.repeat(n)}`, css),
  shape('CSS: "url(a" and n spaces', (n) => `url(a${' '.repeat(n)}b`, css),
  shape('CSS: n unclosed url("', (n) => 'url("'.repeat(n), css),
  shape('CSS: n escapes in url()', (n) => `url(${'\\66 '.repeat(n)}`, css),
  shape('CSS: comment never closed', (n) => `/*${'a*'.repeat(n)}`, css),
  shape('CSS: n "image-set(" never closed', (n) => 'image-set('.repeat(n), css),
  shape('CSS: image-set( of n strings never closed', (n) => `a{b:-webkit-image-set(${'"a.png" 1x, '.repeat(n)}`, css),
  shape('CSS: n "@import/*"', (n) => '@import/*'.repeat(n), css),
  shape('sitemap: n URLs', (n) => `<urlset>${'<url><loc>http://127.0.0.1/x</loc></url>'.repeat(n)}</urlset>`, (s) => () => parseSitemap(Buffer.from(s), { url: PAGE, maxDecodedBytes: 1e9 }).urls.length),
  shape('sitemap: <a> nested n deep', (n) => `<urlset>${'<a>'.repeat(n)}`, (s) => () => parseSitemap(Buffer.from(s), { url: PAGE, maxDecodedBytes: 1e9 }).urls.length),
  shape('feed: n items', (n) => `<rss><channel>${'<item><link>http://127.0.0.1/x</link></item>'.repeat(n)}</channel></rss>`, (s) => () => parseFeed(Buffer.from(s), 'application/rss+xml', PAGE).items.length),
  shape('robots.txt: n wildcard rules', (n) => `User-agent: *\n${'Disallow: /a*b*c*\n'.repeat(n)}`, (s) => () => parseRobotsRules('http://127.0.0.1/robots.txt', s, 'Tidemark').isAllowed(`http://127.0.0.1/${'a'.repeat(100)}`)),
  shape('URL: n "../" segments', (n) => `http://127.0.0.1/${'../a/'.repeat(n)}`, (s) => () => canonicalize(s)),
  shape('focused analysis: n linked paragraphs', (n) => Array.from({ length: n }, (_, i) => `<p>harbour ${i} <a href="/p${i}">l ${i}</a></p>`).join(''),
    (s) => () => scorePage(scorer, pageFromHtml({ url: PAGE, html: s, links: Array.from({ length: s.split('<a ').length - 1 }, (_, i) => ({ url: `http://127.0.0.1/p${i}` })) }, { queryHandling: 'keep', submitForms: false }), false)),
  shape('term counting: n random words', words, (s) => () => text.termCounts(s, 'eng').size),
  shape('language detection: n random words', words, (s) => () => text.detect(s)),
  shape('AAH: phpBB topic + n tables nested', (n) => phpbbTopic.replace('</body>', `${'<table><tr><td>x'.repeat(n)}</body>`), aah),
  // Its posts not found (class renamed): the rule is relaxed, on every table of the page.
  shape('AAH: broken phpBB topic + n tables nested', (n) => brokenTopic.replace('</body>', `${'<table><tr><td>x'.repeat(n)}</body>`), aah),
  shape('AAH: phpBB topic + n broken posts', (n) => phpbbTopic.replace('</body>', `${'<div class="post"><div class="inner">x</div></div>'.repeat(n)}</body>`), aah),
];

const MIN_MS = 30;
const MAX_CHARS = 16e6;
const TARGET_GROWTH = 6;

function bestOf(make: () => () => unknown, runs = 3): number {
  let best = Infinity;
  for (let r = 0; r < runs; r++) {
    const work = make();
    // A collection of the previous run's garbage inside a timed run read as growth (npm script: --expose-gc).
    (globalThis as { gc?: () => void }).gc?.();
    const t = performance.now();
    work();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

interface Row {
  shape: string;
  n: number;
  chars4n: number;
  ms: [number, number, number];
  growth: number;
  mbPerSecond: number;
  met: boolean;
}

const rows: Row[] = [];
for (const s of SHAPES) {
  let n = 250;
  bestOf(() => s.make(n), 1); // warm-up
  while (bestOf(() => s.make(n), 3) < MIN_MS && s.chars(4 * n) * 2 <= MAX_CHARS) n *= 2;
  bestOf(() => s.make(4 * n), 1); // the largest size once, so each size runs warm code
  const ms = [n, 2 * n, 4 * n].map((k) => bestOf(() => s.make(k), 5)) as Row['ms'];
  const chars4n = s.chars(4 * n);
  const growth = ms[2] / ms[0];
  const row = { shape: s.name, n, chars4n, ms, growth, mbPerSecond: chars4n / 1e6 / (ms[2] / 1000), met: growth <= TARGET_GROWTH };
  rows.push(row);
  console.log(`${s.name.padEnd(44)} n=${String(n).padStart(7)}  ${ms.map((t) => t.toFixed(0).padStart(5)).join(' →')} ms  growth ${growth.toFixed(2)}${row.met ? '' : '  NOT LINEAR'}`);
}

const commit = benchCommit(root);
const when = new Date().toISOString();
mkdirSync(join(root, 'bench/results'), { recursive: true });
writeFileSync(join(root, 'bench/results/hostile.json'), `${JSON.stringify({ commit, when, machine: machineInfo(), targetGrowth: TARGET_GROWTH, rows }, null, 2)}\n`);
const met = rows.filter((r) => r.met).length;
writeReadmeSection(
  'hostile',
  [
    '### `npm run bench:hostile` — hostile input, linear or not (`bench/results/hostile.json`)',
    '',
    `Commit \`${commit}\`, ${when.slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}. Each shape at sizes n, 2n and 4n (best of 5; n doubled until the first run takes ${MIN_MS} ms); growth = t(4n) ÷ t(n), 4 when linear. Target: ≤ ${TARGET_GROWTH} for every shape. **Met by ${met} of ${rows.length}.**`,
    '',
    '| shape | n | input at 4n | ms at n / 2n / 4n | growth | MB/s at 4n |',
    '|---|---:|---:|---|---:|---:|',
    ...rows.map((r) => `| ${r.shape.replaceAll('<', '&lt;')} | ${r.n.toLocaleString('en')} | ${(r.chars4n / 1e6).toFixed(2)} MB | ${r.ms.map((t) => t.toFixed(0)).join(' / ')} | ${r.met ? '' : '**'}${r.growth.toFixed(2)}${r.met ? '' : '**'} | ${r.mbPerSecond.toFixed(1)} |`),
  ].join('\n'),
);
