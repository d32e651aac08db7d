/**
 * Microbenchmark of HTML link extraction on the hot path: a generated ~40 KB page with ~60
 * links (anchors in paragraphs and lists, images with srcset, scripts, stylesheets, a style
 * block), run through the full response dispatcher (charset sniffing, decoding, parsing,
 * canonicalisation, dedupe). Prints ms per page. Run: npx tsx bench/extract-speed.ts [iterations]
 */
import { Parser } from 'htmlparser2';
import { extractFromResponse } from '../worker/extract';

function generatePage(targetBytes = 40_000): string {
  const words = 'tide coast archive harbour river estuary salt marsh flood barrier storm surge moon sea level gauge record'.split(' ');
  const sentence = (seed: number, n: number) => Array.from({ length: n }, (_, i) => words[(seed * 7 + i * 3) % words.length]).join(' ');
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tide records of the estuary</title>
<link rel="stylesheet" href="/css/site.css"><link rel="icon" href="/favicon.ico">
<link rel="alternate" type="application/rss+xml" href="/feed.xml"><script src="/js/app.js"></script>
<style>body{background:url(/img/bg.png)} @import url("/css/print.css");</style></head><body>
<header><nav><ul>${Array.from({ length: 8 }, (_, i) => `<li><a href="/section/${i}">Section ${i}</a></li>`).join('')}</ul></nav></header><main>`;
  const parts: string[] = [head];
  let links = 8 + 6;
  let i = 0;
  while (parts.join('').length < targetBytes - 600) {
    const withLink = links < 60 && i % 2 === 0;
    const link = withLink ? ` <a href="/articles/${i}/story-${i}.html?ref=home&amp;p=${i}">${sentence(i, 4)}</a> ` : ' ';
    if (withLink) links++;
    const img = i % 9 === 0 && links < 60 ? `<img src="/img/p${i}.jpg" srcset="/img/p${i}-1x.jpg 1x, /img/p${i}-2x.jpg 2x" alt="${sentence(i, 3)}">` : '';
    if (img) links += 3;
    parts.push(`<div class="block"><h2>${sentence(i, 5)}</h2><p>${sentence(i, 40)}${link}${sentence(i + 1, 40)} &mdash; ${img}</p></div>\n`);
    i++;
  }
  parts.push(`</main><footer><p>&copy; Tidemark <a href="/about">About</a> <a href="https://example.net/partner">Partner</a></p></footer></body></html>`);
  return parts.join('');
}

const iterations = Number(process.argv[2] ?? 2000);
const html = generatePage();
const body = Buffer.from(html, 'utf8');
const input = { url: 'https://example.org/index.html', status: 200, headers: { 'content-type': 'text/html' }, body, maxDecodedBytes: 1e8, queryHandling: 'sort' as const };

const sample = extractFromResponse(input);
function msPer(fn: () => void): number {
  for (let w = 0; w < 300; w++) fn(); // warm-up: let the JIT settle
  const start = process.hrtime.bigint();
  for (let n = 0; n < iterations; n++) fn();
  return Number(process.hrtime.bigint() - start) / 1e6 / iterations;
}
// The bare tokenizer (no callbacks) on the same page: the floor this parser allows, and a
// yardstick that makes figures from a busy machine comparable.
const baseline = msPer(() => new Parser({}).end(html));
const ms = msPer(() => extractFromResponse(input));
console.log(
  JSON.stringify({
    pageBytes: body.length,
    links: sample.links.length,
    textChars: sample.text?.length ?? 0,
    iterations,
    msPerPage: +ms.toFixed(4),
    pagesPerSecond: Math.round(1000 / ms),
    bareTokenizerMs: +baseline.toFixed(4),
    overheadOverTokenizer: +(ms / baseline).toFixed(2),
  }),
);
