/** Sites the knowledge base knows only generically: a news site and a personal blog. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { request } from 'undici';
import { createAahEngine, loadDefaultKnowledgeBaseXml, parseKnowledgeBase, type AahEngine, type PageAnalysis } from '../../../worker/aah/index';
import { startSite, type Route } from './fixture-server';

let engine: AahEngine;
const servers: Server[] = [];
const origins: Record<string, string> = {};

before(async () => {
  const parsed = parseKnowledgeBase(await loadDefaultKnowledgeBaseXml());
  assert.ok(parsed.ok);
  engine = createAahEngine(parsed.kb);
  const sites: Record<string, Record<string, Route>> = {
    news: { '/news/harbour-wall': { file: 'generic/news-article.html' } },
    blog: { '/post/knots': { file: 'generic/blog-post.html' } },
    forum: { '/thread/7': { file: 'generic/threaded-forum.html' } },
  };
  for (const [name, routes] of Object.entries(sites)) {
    const site = await startSite(routes);
    origins[name] = site.origin;
    servers.push(site.server);
  }
});

after(() => servers.forEach((s) => s.close()));

async function crawl(site: string, path: string): Promise<PageAnalysis> {
  const url = origins[site] + path;
  const res = await request(url);
  return engine.analysePage({ url, status: res.statusCode, headers: res.headers, html: await res.body.text() });
}

test('a news article: generic news, terminal, sign-in and share links not followed, article extracted', async () => {
  const r = await crawl('news', '/news/harbour-wall');
  assert.deepEqual([r.application?.id, r.level], ['generic-news', 'terminal']);
  const dnf = r.doNotFollow.map((l) => l.url.replace(origins.news, ''));
  assert.deepEqual(dnf.sort(), ['/account/login', '/share?url=%2Fnews%2Fharbour-wall', '/subscribe']);
  assert.deepEqual(r.objects.map((o) => [o.type, o.fields]), [[
    'article',
    { title: 'Harbour wall repairs finished early', author: 'Priya Nair', date: '2024-04-09T06:00:00Z', body: 'Repairs to the north harbour wall finished two weeks early.\nThe promenade reopens on Saturday.' },
  ]]);
});

test('a blog post: generic blog, terminal, admin and edit links not followed, post extracted', async () => {
  const r = await crawl('blog', '/post/knots');
  assert.deepEqual([r.application?.id, r.level], ['generic-blog', 'terminal']);
  assert.deepEqual(r.doNotFollow.map((l) => l.url.replace(origins.blog, '')).sort(), ['/admin/login', '/post/knots/edit']);
  assert.deepEqual(r.objects.map((o) => o.fields), [{ title: 'Knots I keep forgetting', author: 'Sam Reed', date: '2024-02-20T19:00:00Z', body: 'The rolling hitch, every single time.' }]);
});

// Found by an exploratory session: replies nested inside the post they answer (threaded boards,
// comment trees) were not objects of their own, only the outermost post was extracted.
test('a threaded forum: generic forum, every post its own object, nested replies too, a message box inside a post not one more', async () => {
  const r = await crawl('forum', '/thread/7');
  assert.deepEqual([r.application?.id, r.level], ['generic-forum', 'terminal']);
  assert.deepEqual(r.objects.map((o) => o.fields), [
    { author: 'alice', body: "Where do I find this week's tide tables?" },
    { author: 'bob', body: 'The harbour office posts them.' },
    { author: 'carol', body: 'And online, every Monday.' },
    { author: 'dave', body: 'Thanks, found them.' },
  ]);
});
