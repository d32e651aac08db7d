// The crash explorer's site: HTML pages that share a stylesheet, a script and eight images, each also
// embedding a copy of one of those images under a name of its own (the same payload: a revisit
// record), and a few files past the fetcher's 1 MB memory limit (spooled to disk while written),
// one of them twice under two names. Deterministic for a seed.
import type { RequestListener } from 'node:http';
import { mulberry32 } from '../support/mulberry32';

/** A site's routes and the paths a complete crawl of it captures, each exactly once. */
export interface KillSite {
  listener: RequestListener;
  /** Every path a crawl from `/` captures (pages, requisites, the favicon), robots.txt apart. */
  paths: string[];
}

const IMAGES = 8;
/** Copies of the images under names of their own: the first fetch of each payload is a response, the rest revisits. */
const COPIES = 24;
/** Bodies past the fetcher's 1 MB memory limit, which go through the spool folder. */
const LARGE_BYTES = 1_300_000;
const LARGE_EVERY = 60;

const pagePath = (i: number): string => (i === 0 ? '/' : `/p/${i}.html`);
const imagePath = (k: number): string => `/img/pic-${k}.png`;
const copyPath = (c: number): string => `/img/copy-${c}.png`;
const largePath = (i: number): string => `/files/report-${i}.bin`;
/** The second name of the first large file: the same bytes, a revisit of it. */
const LARGE_COPY = '/files/report-copy.bin';

/** Bytes that start as a PNG does and go on with `size` deterministic bytes of `seed`. */
function pseudoPng(seed: number, size: number): Buffer {
  const rand = mulberry32(seed);
  const bytes = Buffer.alloc(size);
  for (let b = 0; b < size; b++) bytes[b] = Math.floor(rand() * 256);
  Buffer.from('89504e470d0a1a0a', 'hex').copy(bytes);
  return bytes;
}

/**
 * The site of `pages` HTML pages (the first is `/`): each links to the next two and to three
 * others picked by `seed`, so a crawl finds every page, many of them through several links.
 * `delayMs` delays every answer, so that a crawl lasts long enough to be killed anywhere in it.
 */
export function killSite(pages: number, seed: number, delayMs = 0): KillSite {
  // Fewer pages would leave some copies and images linked from nowhere, yet listed.
  if (!Number.isInteger(pages) || pages < COPIES) throw new Error(`the site needs at least ${COPIES} pages (got ${pages})`);
  const rand = mulberry32(seed);
  const links = Array.from({ length: pages }, (_, i) => [i + 1, i + 2, ...[0, 1, 2].map(() => Math.floor(rand() * pages))].filter((j) => j < pages && j !== i));
  const images = Array.from({ length: IMAGES }, (_, k) => pseudoPng(seed * 31 + k, 3000 + 700 * k));
  const large = (i: number) => Buffer.alloc(LARGE_BYTES, `report ${i === LARGE_EVERY ? LARGE_EVERY : i} `);
  const largePages = Array.from({ length: pages }, (_, i) => i).filter((i) => i > 0 && i % LARGE_EVERY === 0);
  const html = (i: number): string => {
    const anchors = links[i]!.map((j) => `<a href="${pagePath(j)}">page ${j}</a>`).join(' ');
    const extra = i % LARGE_EVERY === 0 && i > 0 ? ` <a href="${largePath(i)}">report</a>${i === LARGE_EVERY ? ` <a href="${LARGE_COPY}">report again</a>` : ''}` : '';
    return `<!doctype html><html><head><title>Page ${i}</title><link rel="stylesheet" href="/static/site.css"><script src="/static/site.js"></script></head>` +
      `<body><h1>Page ${i}</h1><img src="${imagePath(i % IMAGES)}"><img src="${copyPath(i % COPIES)}">` +
      `<p>${'The tide came in over the harbour wall and the boats rose with it. '.repeat(10 + (i % 30))}</p><p>${anchors}${extra}</p></body></html>`;
  };
  const routes = new Map<string, { type: string; body: () => Buffer | string }>();
  for (let i = 0; i < pages; i++) routes.set(pagePath(i), { type: 'text/html; charset=utf-8', body: () => html(i) });
  for (let k = 0; k < IMAGES; k++) routes.set(imagePath(k), { type: 'image/png', body: () => images[k]! });
  for (let c = 0; c < COPIES; c++) routes.set(copyPath(c), { type: 'image/png', body: () => images[c % IMAGES]! });
  for (const i of largePages) routes.set(largePath(i), { type: 'application/octet-stream', body: () => large(i) });
  if (largePages.length) routes.set(LARGE_COPY, { type: 'application/octet-stream', body: () => large(LARGE_EVERY) });
  routes.set('/static/site.css', { type: 'text/css', body: () => `body{margin:0 auto;max-width:40em;background:url(${imagePath(0)})}\n`.repeat(20) });
  routes.set('/static/site.js', { type: 'text/javascript', body: () => 'document.documentElement.className="js";\n'.repeat(40) });
  routes.set('/favicon.ico', { type: 'image/x-icon', body: () => images[1]!.subarray(0, 1000) });

  const listener: RequestListener = (req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    setTimeout(() => {
      const route = routes.get(path);
      if (!route) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      res.writeHead(200, { 'content-type': route.type }).end(route.body());
    }, delayMs);
  };
  return { listener, paths: [...routes.keys()] };
}
