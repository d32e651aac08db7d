/**
 * What the AAH costs and saves.
 *  1. Cost per page: the shipped knowledge base on generated ~40 KB forum pages of one host
 *     (first page: detection; then the cached application), on pages of a host with no known
 *     application, and the one-off cost of generating relaxed candidates.
 *  2. Savings: a tiny BFS crawl of a generated phpBB board on loopback (600 posts; login,
 *     posting, profile, search and member-list links everywhere), once following every link,
 *     once following only the AAH's navigation links; requests made and posts captured.
 *
 *   node --import tsx bench/aah-cost.ts [--pages N]
 */
import { Parser } from 'htmlparser2';
import { Agent, request } from 'undici';
import { createAahEngine, loadDefaultKnowledgeBaseXml, parseHtml, parseKnowledgeBase, type KnowledgeBase } from '../worker/aah/index';
import { generateTopicPage } from './aah-fixture-pages';
import { allPostIds, startForumSite } from './aah-forum-site';
import { renamedTopicPage } from '../test/fixtures/aah/phpbb-renamed/topic-page';

const stats = (xs: number[]): string => {
  const s = [...xs].sort((a, b) => a - b);
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return `mean ${mean.toFixed(2)} ms, p50 ${s[Math.floor(s.length / 2)].toFixed(2)} ms, p95 ${s[Math.floor(s.length * 0.95)].toFixed(2)} ms`;
};

function costPerPage(kb: KnowledgeBase, n: number): void {
  const pages = Array.from({ length: n + 1 }, (_, i) => generateTopicPage(40_000, i + 1, 1));
  // Same size and shape, nothing any application of the knowledge base recognises.
  const plain = pages.map((p) =>
    p.replace(/ (class|id)="[^"]*"/g, ' $1="c"').replace(/href="[^"]*"/g, 'href="./other.html"').replace(/phpbb/gi, 'board').replace(/<time[^>]*>/g, '<span>'),
  );
  console.log(`\n1. AAH cost per page (${n} pages of ~${Math.round(pages[0].length / 1000)} KB, shipped knowledge base)`);
  const engine = createAahEngine(kb);
  let t = performance.now();
  const first = engine.analysePage({ url: 'http://bench.test/viewtopic.php?t=0', html: pages[0] });
  console.log(`   first page of a host (detection over ${kb.applications.length} applications, expressions compiled): ${(performance.now() - t).toFixed(1)} ms → ${first.application?.id}/${first.level}, ${first.objects.length} posts`);
  const parse: number[] = [];
  const analyse: number[] = [];
  let objects = 0;
  for (let i = 1; i <= n; i++) {
    t = performance.now();
    const dom = parseHtml(pages[i]);
    const t1 = performance.now();
    const r = engine.analysePage({ url: `http://bench.test/viewtopic.php?t=${i}`, dom });
    analyse.push(performance.now() - t1);
    parse.push(t1 - t);
    objects += r.objects.length;
  }
  console.log(`   HTML parse (htmlparser2 → lean DOM): ${stats(parse)}`);
  console.log(`   AAH analysis, application cached:    ${stats(analyse)} (${(objects / n).toFixed(0)} posts, 4 fields each, per page)`);
  const none = createAahEngine(kb);
  const noneMs = plain.slice(0, Math.min(n, 20)).map((html, i) => {
    const dom = parseHtml(html);
    const s = performance.now();
    none.analysePage({ url: `http://plain.test/page/${i}`, dom });
    return performance.now() - s;
  });
  console.log(`   host with no known application (detection on its first 5 pages, then cached): first 5 ${stats(noneMs.slice(0, 5))}; after ${stats(noneMs.slice(5))}`);
  const adapting = createAahEngine(kb);
  const adaptMs = [1, 2, 3, 4, 5].map((p) => {
    const s = performance.now();
    adapting.analysePage({ url: `http://quay.test/viewtopic.php?t=${p}`, html: renamedTopicPage(p, 10) });
    return performance.now() - s;
  });
  console.log(`   renamed template (adaptation): candidate generation ${adaptMs[0].toFixed(1)} ms, validation pages ${adaptMs.slice(1, 4).map((m) => m.toFixed(1)).join(' / ')} ms, adapted rule in use ${adaptMs[4].toFixed(1)} ms`);
}

function links(html: string, base: string): string[] {
  const out: string[] = [];
  const p = new Parser({
    onopentag(name, attrs) {
      if (name === 'a' && attrs.href) {
        try {
          const u = new URL(attrs.href, base);
          u.hash = '';
          out.push(u.href);
        } catch { /* not a URL */ }
      }
    },
  }, { decodeEntities: true });
  p.end(html);
  return out;
}

interface CrawlResult { requests: number; posts: number; requestsToAllPosts: number | null; seconds: number }

/** Breadth-first crawl of `origin` (same-origin links only), with or without AAH navigation. */
async function bfs(origin: string, kb: KnowledgeBase | null, dispatcher: Agent, maxRequests = 5000): Promise<CrawlResult> {
  const engine = kb ? createAahEngine(kb) : null;
  const total = allPostIds().length;
  const queue = [`${origin}/`];
  const seen = new Set(queue);
  const captured = new Set<string>();
  let requests = 0;
  let requestsToAllPosts: number | null = null;
  const started = performance.now();
  while (queue.length && requests < maxRequests) {
    const url = queue.shift()!;
    const res = await request(url, { dispatcher });
    const html = await res.body.text();
    requests++;
    for (const m of html.matchAll(/<div id="p(\d+)" class="post/g)) captured.add(m[1]);
    if (requestsToAllPosts === null && captured.size === total) requestsToAllPosts = requests;
    let next: string[];
    if (engine) {
      const r = engine.analysePage({ url, status: res.statusCode, headers: res.headers, html });
      next = r.application ? r.follow.map((f) => f.url) : links(html, url);
    } else next = links(html, url);
    for (const u of next) {
      if (u.startsWith(origin) && !seen.has(u)) {
        seen.add(u);
        queue.push(u);
      }
    }
  }
  return { requests, posts: captured.size, requestsToAllPosts, seconds: (performance.now() - started) / 1000 };
}

async function crawlComparison(kb: KnowledgeBase): Promise<void> {
  const { origin, server } = await startForumSite();
  const dispatcher = new Agent({ connections: 4 });
  try {
    console.log(`\n2. BFS crawl of a generated phpBB board on loopback (${allPostIds().length} posts)`);
    for (const [label, useKb] of [['without AAH (every link)', null], ['with AAH navigation', kb]] as const) {
      const r = await bfs(origin, useKb, dispatcher);
      console.log(`   ${label.padEnd(26)} ${String(r.requests).padStart(5)} requests, ${r.posts} posts captured, all posts after ${r.requestsToAllPosts ?? '—'} requests (${r.seconds.toFixed(1)} s)`);
    }
  } finally {
    await dispatcher.close();
    server.close();
  }
}

const n = Number(process.argv[process.argv.indexOf('--pages') + 1]) || 100;
const parsed = parseKnowledgeBase(await loadDefaultKnowledgeBaseXml());
if (!parsed.ok) throw new Error(`shipped knowledge base invalid: ${JSON.stringify(parsed.errors)}`);
costPerPage(parsed.kb, n);
await crawlComparison(parsed.kb);
