// Static benchmark site generator: N HTML pages of 20–60 KB with 20–60 links each, shared CSS/JS/images,
// robots.txt with a Sitemap line and sitemap.xml. Deterministic (seeded), so every run crawls the same bytes.
import { mkdirSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32 } from './mulberry32';

export interface SiteInfo {
  dir: string;
  pages: number;
  /** Every URL path on the site reachable by a crawler (pages, assets, robots.txt, sitemap). */
  paths: string[];
  htmlBytes: number;
}

const WORDS = (
  'archive harbour tide current vessel record capture crawler index frontier ledger coast estuary mariner ' +
  'charter cargo signal beacon lantern keel anchor voyage chart compass survey bulletin report council ' +
  'library museum collection history municipal river bridge market festival weather season garden ' +
  'school station railway engineer science energy climate ocean fishery island village county region ' +
  'the of and to in a is that for on with as by at from this be are was it an or which have'
).split(' ');

export const pagePath = (i: number): string => (i === 0 ? '/' : `/s${i % 50}/page-${i}.html`);
export const ASSETS = ['/static/site.css', '/static/site.js', ...Array.from({ length: 8 }, (_, k) => `/static/img/pic-${k}.png`)];

function paragraphs(rand: () => number, count: number): string[] {
  const out: string[] = [];
  for (let p = 0; p < count; p++) {
    const n = 60 + Math.floor(rand() * 80);
    const w: string[] = [];
    for (let k = 0; k < n; k++) w.push(WORDS[Math.floor(rand() * WORDS.length)]);
    out.push(w.join(' '));
  }
  return out;
}

/** Generates the site into `dir` (skips when a matching site is already there). */
export function generateSite(dir: string, pages: number, seed = 42): SiteInfo {
  const stamp = join(dir, '.site.json');
  const paths = [...Array.from({ length: pages }, (_, i) => pagePath(i)), ...ASSETS, '/robots.txt', '/sitemap.xml'];
  if (existsSync(stamp)) {
    const meta = JSON.parse(readFileSync(stamp, 'utf8')) as { pages: number; seed: number; htmlBytes: number };
    if (meta.pages === pages && meta.seed === seed) return { dir, pages, paths, htmlBytes: meta.htmlBytes };
  }
  const rand = mulberry32(seed);
  const pool = paragraphs(rand, 400);
  mkdirSync(join(dir, 'static/img'), { recursive: true });
  for (let s = 0; s < 50; s++) mkdirSync(join(dir, `s${s}`), { recursive: true });
  writeFileSync(join(dir, 'static/site.css'), `body{font:16px/1.5 serif;margin:0 auto;max-width:50em}\n.nav a{margin:0 .3em}\n.hero{background:url(/static/img/pic-0.png)}\n`.repeat(40));
  writeFileSync(join(dir, 'static/site.js'), `(function(){var n=0;document.addEventListener('click',function(){n++;});})();\n`.repeat(200));
  for (let k = 0; k < 8; k++) {
    const img = Buffer.alloc(4000 + k * 1500);
    for (let b = 0; b < img.length; b++) img[b] = Math.floor(rand() * 256);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(img);
    writeFileSync(join(dir, `static/img/pic-${k}.png`), img);
  }
  writeFileSync(join(dir, 'robots.txt'), `User-agent: *\nDisallow: /private/\n\nSitemap: /sitemap.xml\n`);
  let htmlBytes = 0;
  for (let i = 0; i < pages; i++) {
    const target = 20_000 + Math.floor(rand() * 40_000);
    const nLinks = 20 + Math.floor(rand() * 41);
    const links: number[] = [(i + 1) % pages];
    while (links.length < nLinks) links.push(Math.floor(rand() * pages));
    const img = Math.floor(rand() * 8);
    const head =
      `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Harbour bulletin ${i}</title>\n` +
      `<link rel="stylesheet" href="/static/site.css"><script src="/static/site.js" defer></script></head>\n<body>\n` +
      `<header><img src="/static/img/pic-${img}.png" alt="logo"><nav class="nav"><a href="/">Home</a></nav></header>\n<main>\n<h1>Harbour bulletin ${i}</h1>\n`;
    const parts: string[] = [head];
    let size = head.length;
    let li = 0;
    // Paragraphs with the links woven in (anchor text + surrounding paragraph, as on real pages).
    while (size < target - 200 || li < links.length) {
      const text = pool[Math.floor(rand() * pool.length)];
      let para = `<p>${text}`;
      for (let k = 0; k < 3 && li < links.length; k++, li++) {
        const t = links[li];
        para += ` <a href="${pagePath(t)}">bulletin ${t} ${WORDS[t % WORDS.length]}</a> ${WORDS[(t * 7) % WORDS.length]}`;
      }
      para += '</p>\n';
      parts.push(para);
      size += para.length;
    }
    parts.push(`<img src="/static/img/pic-${(img + 3) % 8}.png" alt="figure">\n</main><footer>Tidemark benchmark site</footer></body></html>\n`);
    const html = parts.join('');
    htmlBytes += html.length;
    writeFileSync(join(dir, i === 0 ? 'index.html' : pagePath(i).slice(1)), html);
  }
  const sm = ['<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'];
  for (let i = 0; i < pages; i++) sm.push(`<url><loc>__ORIGIN__${pagePath(i)}</loc></url>`);
  sm.push('</urlset>\n');
  writeFileSync(join(dir, 'sitemap.xml.tmpl'), sm.join('\n'));
  writeFileSync(stamp, JSON.stringify({ pages, seed, htmlBytes }));
  return { dir, pages, paths, htmlBytes };
}

/** Fails unless `origin` serves the robots.txt writeSitemap wrote (a stale copy would hide the sitemap). */
export async function checkSitemapServed(origin: string): Promise<void> {
  const robots = await (await fetch(`${origin}/robots.txt`)).text();
  if (!robots.includes(`Sitemap: ${origin}/sitemap.xml\n`)) throw new Error(`${origin}/robots.txt does not name the sitemap: ${JSON.stringify(robots)}`);
}

/** sitemap.xml needs absolute URLs: written once the server's origin is known. */
export function writeSitemap(dir: string, origin: string): void {
  writeFileSync(join(dir, 'sitemap.xml'), readFileSync(join(dir, 'sitemap.xml.tmpl'), 'utf8').replaceAll('__ORIGIN__', origin));
  writeFileSync(join(dir, 'robots.txt'), `User-agent: *\nDisallow: /private/\n\nSitemap: ${origin}/sitemap.xml\n`);
}
