/**
 * The shipped knowledge base against fixture sites written from each application's default
 * templates, served over real loopback HTTP (one server, hence one host, per application) and
 * fetched with undici, as the crawler will.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { request } from 'undici';
import { createAahEngine, loadDefaultKnowledgeBaseXml, parseKnowledgeBase, type AahEngine, type PageAnalysis } from '../../../worker/aah/index';
import { expectedPost, renamedTopicPage } from '../../fixtures/aah/phpbb-renamed/topic-page';
import { startSite, type Route } from './fixture-server';

const SITES: Record<string, Record<string, Route>> = {
  wordpress: {
    '/': { file: 'wordpress/home.html' },
    '/2024/03/spring-tides/': { file: 'wordpress/single.html', headers: { link: '<{{origin}}/wp-json/>; rel="https://api.w.org/"' } },
  },
  mediawiki: { '/wiki/Category:Shorebirds': { file: 'mediawiki/category.html' }, '/wiki/Oystercatcher': { file: 'mediawiki/article.html' } },
  dokuwiki: { '/doku.php?id=start&do=index': { file: 'dokuwiki/index.html' }, '/doku.php?id=boats:moorings': { file: 'dokuwiki/page.html' } },
  phpbb: {
    '/viewforum.php?f=2': { file: 'phpbb/viewforum.html', headers: { 'set-cookie': 'phpbb3_8xk2p_sid=5f1e; path=/; HttpOnly' } },
    '/viewtopic.php?t=1': { file: 'phpbb/viewtopic.html', headers: { 'set-cookie': 'phpbb3_8xk2p_sid=5f1e; path=/; HttpOnly' } },
  },
  vbulletin: { '/forumdisplay.php?f=4': { file: 'vbulletin/forumdisplay.html' }, '/showthread.php?t=10': { file: 'vbulletin/showthread.html' } },
  drupal: {
    '/': { file: 'drupal/frontpage.html', headers: { 'x-generator': 'Drupal 10 (https://www.drupal.org)' } },
    '/node/1': { file: 'drupal/node.html', headers: { 'x-generator': 'Drupal 10 (https://www.drupal.org)' } },
  },
  discourse: { '/latest': { file: 'discourse/latest.html' }, '/t/winter-storage-tips/42': { file: 'discourse/topic.html' } },
  quay: Object.fromEntries([1, 2, 3, 4, 5, 6].map((t) => [`/viewtopic.php?t=${t}`, { render: () => renamedTopicPage(t) }])),
};

const origins: Record<string, string> = {};
const servers: Server[] = [];
let engine: AahEngine;

before(async () => {
  const parsed = parseKnowledgeBase(await loadDefaultKnowledgeBaseXml());
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.errors));
  engine = createAahEngine(parsed.kb);
  for (const [name, routes] of Object.entries(SITES)) {
    const { origin, server } = await startSite(routes);
    origins[name] = origin;
    servers.push(server);
  }
});

after(() => {
  for (const s of servers) s.close();
});

/** Fetches a page with undici and analyses it. */
async function crawl(site: string, path: string): Promise<PageAnalysis> {
  const url = origins[site] + path;
  const res = await request(url);
  assert.equal(res.statusCode, 200, url);
  const html = await res.body.text();
  return engine.analysePage({ url, status: res.statusCode, headers: res.headers, html });
}

const paths = (links: { url: string }[], site: string): string[] => links.map((l) => l.url.replace(origins[site], ''));

function assertExcluded(r: PageAnalysis, site: string, excluded: string[]): void {
  const dnf = paths(r.doNotFollow, site);
  const follow = paths(r.follow, site);
  for (const p of excluded) {
    assert.ok(dnf.includes(p), `${p} should be do-not-follow; got ${dnf.join(' ')}`);
    assert.ok(!follow.includes(p), `${p} must not be followed`);
  }
}

test('WordPress: home page lists posts, a single post gives the post and its comments', async () => {
  const home = await crawl('wordpress', '/');
  assert.equal(home.application?.id, 'wordpress');
  assert.equal(home.level, 'intermediate');
  assert.deepEqual(paths(home.follow, 'wordpress').sort(), ['/2024/02/oystercatchers/', '/2024/03/spring-tides/', '/category/birds/', '/category/tides/', '/page/2/']);
  assertExcluded(home, 'wordpress', ['/wp-login.php']);

  const single = await crawl('wordpress', '/2024/03/spring-tides/');
  assert.equal(single.level, 'terminal');
  assertExcluded(single, 'wordpress', ['/wp-login.php', '/wp-admin/post.php?post=12&action=edit', '/wp-admin/comment.php?action=editcomment&c=4', '/2024/03/spring-tides/?replytocom=3']);
  assert.deepEqual(single.objects.map((o) => [o.type, o.fields]), [
    ['post', { title: 'Spring tides at the estuary', author: 'Maren Holt', date: '2024-03-21T08:15:00+00:00', body: 'The spring tides came in higher than forecast this year.\nWater reached the second marker post by seven o’clock.' }],
    ['comment', { author: 'Jonas Berg', date: '2024-03-21T10:02:00+00:00', body: 'Same here, the car park flooded.' }],
    ['comment', { author: 'Maren Holt', date: '2024-03-21T11:30:00+00:00', body: 'The council has been told.' }],
  ]);
  assert.equal(single.objects[0].rule, 'wordpress/terminal/post');
  assert.equal(single.objects[0].sourceUrl, `${origins.wordpress}/2024/03/spring-tides/`);
});

test('MediaWiki: category members are followed; edit, history, login and tools are not; the article is extracted', async () => {
  const cat = await crawl('mediawiki', '/wiki/Category:Shorebirds');
  assert.equal(cat.application?.id, 'mediawiki');
  assert.equal(cat.level, 'intermediate');
  assert.deepEqual(paths(cat.follow, 'mediawiki'), ['/wiki/Oystercatcher', '/wiki/Redshank']);
  assertExcluded(cat, 'mediawiki', ['/w/index.php?title=Category:Shorebirds&action=edit', '/w/index.php?title=Category:Shorebirds&action=history', '/w/index.php?title=Special:UserLogin&returnto=Category%3AShorebirds']);

  const art = await crawl('mediawiki', '/wiki/Oystercatcher');
  assert.equal(art.level, 'terminal');
  assertExcluded(art, 'mediawiki', [
    '/w/index.php?title=Oystercatcher&action=edit', '/w/index.php?title=Oystercatcher&action=history', '/w/index.php?title=Oystercatcher&oldid=4711',
    '/w/index.php?title=Special:UserLogin&returnto=Oystercatcher', '/wiki/Special:WhatLinksHere/Oystercatcher', '/w/index.php?title=Cockle_beds&action=edit&redlink=1',
  ]);
  assert.ok(paths(art.follow, 'mediawiki').includes('/wiki/Mudflat'));
  assert.deepEqual(art.objects.map((o) => [o.type, o.fields.title, o.fields.date]), [['article', 'Oystercatcher', 'This page was last edited on 14 March 2024, at 18:03.']]);
  assert.equal(art.objects[0].fields.body, 'The oystercatcher is a wader of the mudflats, often seen with the redshank.\nDiet\n[edit]\nMostly mussels and cockles; see also cockle beds.');
});

test('DokuWiki: the sitemap is followed; edit, revisions, login and missing pages are not; the page is extracted', async () => {
  const idx = await crawl('dokuwiki', '/doku.php?id=start&do=index');
  assert.equal(idx.application?.id, 'dokuwiki');
  assert.equal(idx.level, 'intermediate');
  assert.ok(paths(idx.follow, 'dokuwiki').includes('/doku.php?id=boats:moorings'));
  assertExcluded(idx, 'dokuwiki', ['/doku.php?id=start&do=login&sectok=']);

  const page = await crawl('dokuwiki', '/doku.php?id=boats:moorings');
  assert.equal(page.level, 'terminal');
  assertExcluded(page, 'dokuwiki', ['/doku.php?id=boats:moorings&do=edit', '/doku.php?id=boats:moorings&do=revisions', '/doku.php?id=boats:moorings&do=login&sectok=', '/doku.php?id=boats:winter&do=edit']);
  assert.ok(paths(page.follow, 'dokuwiki').includes('/doku.php?id=boats:fees'));
  const [o] = page.objects;
  assert.equal(o.type, 'article');
  assert.equal(o.fields.title, 'Moorings');
  assert.equal(o.fields.author, 'harbourmaster');
  assert.equal(o.fields.date, 'boats/moorings.txt · Last modified: 2024/03/02 09:41 by harbourmaster');
  assert.match(o.fields.body, /^Moorings\nVisitors moor on the north pontoon\./);
});

test('phpBB: topics are followed, login/posting/profiles are not, and each post is extracted', async () => {
  const forum = await crawl('phpbb', '/viewforum.php?f=2');
  assert.equal(forum.application?.id, 'phpbb');
  assert.equal(forum.level, 'intermediate');
  assert.deepEqual(paths(forum.follow, 'phpbb'), ['/viewtopic.php?t=1', '/viewtopic.php?t=3', '/viewtopic.php?t=1&start=10']);
  assertExcluded(forum, 'phpbb', ['/ucp.php?mode=login&redirect=viewforum.php%3Ff%3D2', '/posting.php?mode=post&f=2', '/memberlist.php?mode=viewprofile&u=2']);

  const topic = await crawl('phpbb', '/viewtopic.php?t=1');
  assert.equal(topic.level, 'terminal');
  assertExcluded(topic, 'phpbb', ['/ucp.php?mode=login&redirect=viewtopic.php%3Ft%3D1', '/posting.php?mode=edit&p=11', '/posting.php?mode=reply&t=1']);
  assert.deepEqual(topic.objects.map((o) => o.fields), [
    { title: 'Caulking a clinker hull', author: 'shipwright', date: '2024-03-01T09:00:00+00:00', body: 'Which cotton do you use between the planks?\nMine keeps squeezing out.' },
    { title: 'Re: Caulking a clinker hull', author: 'ferryman', date: '2024-03-01T11:20:00+00:00', body: 'Use oakum, not cotton, for planks that thick.' },
  ]);
});

test('vBulletin: threads are followed, login/reply/edit/profiles are not, posts are extracted', async () => {
  const forum = await crawl('vbulletin', '/forumdisplay.php?f=4');
  assert.equal(forum.application?.id, 'vbulletin');
  assert.equal(forum.level, 'intermediate');
  assert.ok(paths(forum.follow, 'vbulletin').includes('/showthread.php?t=10'));
  assertExcluded(forum, 'vbulletin', ['/register.php', '/newthread.php?do=newthread&f=4', '/member.php?u=7']);

  const thread = await crawl('vbulletin', '/showthread.php?t=10');
  assert.equal(thread.level, 'terminal');
  assertExcluded(thread, 'vbulletin', ['/login.php?do=lostpw', '/editpost.php?do=editpost&p=102', '/newreply.php?do=newreply&p=101', '/printthread.php?t=10']);
  assert.deepEqual(thread.objects.map((o) => o.fields), [
    { title: 'Reefing in a squall', author: 'skipper', date: '02-14-2024, 06:10 PM', body: 'How early do you put the first reef in?\nI waited too long on Sunday.' },
    { title: 'Re: Reefing in a squall', author: 'bosun', date: '02-14-2024, 07:45 PM', body: 'Reef when you first think of it.' },
  ]);
});

test('Drupal: teasers and pager are followed; login, edit and revisions are not; article and comment extracted', async () => {
  const front = await crawl('drupal', '/');
  assert.equal(front.application?.id, 'drupal');
  assert.equal(front.level, 'intermediate');
  assert.deepEqual(paths(front.follow, 'drupal').sort(), ['/?page=1', '/node/1', '/node/2', '/node/3']);
  assertExcluded(front, 'drupal', ['/user/login']);

  const node = await crawl('drupal', '/node/1');
  assert.equal(node.level, 'terminal');
  assertExcluded(node, 'drupal', ['/user/login', '/node/1/edit', '/node/1/revisions', '/comment/reply/node/1/comment/1']);
  assert.deepEqual(node.objects.map((o) => [o.type, o.fields]), [
    ['article', { title: 'New pontoon opens', author: 'Ines Carvalho', date: '2024-03-18T07:30:00+00:00', body: 'The new visitor pontoon opened on Monday with room for forty boats.\nBerths can be booked at the harbour office.' }],
    ['comment', { title: 'About time', author: 'Old Tom (not verified)', date: 'Mon, 03/18/2024 - 08:10', body: 'About time too; the old one was rotten.' }],
  ]);
});

test('Discourse (crawler view): topics are followed, login/profiles/raw/print are not, posts are extracted', async () => {
  const latest = await crawl('discourse', '/latest');
  assert.equal(latest.application?.id, 'discourse');
  assert.equal(latest.level, 'intermediate');
  assert.deepEqual(paths(latest.follow, 'discourse'), ['/t/winter-storage-tips/42', '/t/welcome-to-harbour-community/7', '/latest?no_definitions=true&page=1', '/c/boats/5']);
  assertExcluded(latest, 'discourse', ['/login']);

  const topic = await crawl('discourse', '/t/winter-storage-tips/42');
  assert.equal(topic.level, 'terminal');
  assertExcluded(topic, 'discourse', ['/login', '/u/rigger', '/raw/42', '/t/winter-storage-tips/42/print']);
  assert.deepEqual(topic.objects.map((o) => o.fields), [
    { title: 'Winter storage tips', author: 'rigger', date: '2024-03-02T16:05:12Z', body: 'Do you leave the mast up over winter?' },
    { title: 'Winter storage tips', author: 'boatyard_bill', date: '2024-03-03T09:40:00Z', body: 'We unstep every mast in November; the yard insists.' },
  ]);
});

test('a forum whose template renamed classes and tags is detected, adapted after 3 more pages, and its posts extracted', async () => {
  const results: PageAnalysis[] = [];
  for (const t of [1, 2, 3, 4, 5]) results.push(await crawl('quay', `/viewtopic.php?t=${t}`));
  assert.deepEqual(results.map((r) => [r.application?.id, r.level]), Array(5).fill(['phpbb', 'terminal']));
  assert.deepEqual(results.map((r) => r.objects.length), [0, 0, 0, 3, 3]);
  assertExcluded(results[0], 'quay', ['/ucp.php?mode=login&redirect=viewtopic.php%3Ft%3D1', '/posting.php?mode=reply&t=1']);
  const rule = engine.adaptedRules().find((r) => r.applicationId === 'phpbb');
  assert.ok(rule);
  assert.equal(rule.originalRule, 'phpbb/terminal/post');
  assert.equal(rule.original.select, "//div[contains(concat(' ',normalize-space(@class),' '),' post ') and starts-with(@id,'p')]");
  assert.equal(rule.adapted.select, "//article[contains(concat(' ',normalize-space(@class),' '),' entry ') and starts-with(@id,'p')]");
  assert.deepEqual(rule.adapted.fields, {
    title: './/h2',
    author: ".//p[@class='byline']//a[contains(@class,'username')]",
    date: "(.//p[@class='byline']//time/@datetime)[1]",
    body: ".//div[@class='entry-text']",
  });
  assert.equal(rule.generatedOn, `${origins.quay}/viewtopic.php?t=1`);
  assert.deepEqual(rule.validatedOn, [2, 3, 4].map((t) => `${origins.quay}/viewtopic.php?t=${t}`));
  assert.equal(rule.status, 'pending');
  assert.ok(!Number.isNaN(Date.parse(rule.acceptedAt)));
  results[4].objects.forEach((o, i) => {
    assert.deepEqual(o.fields, expectedPost(5, i));
    assert.equal(o.rule, rule.id);
  });
  assert.equal(engine.setAdaptedRuleStatus(rule.id, 'approved'), true);
  const approved = await crawl('quay', '/viewtopic.php?t=6');
  assert.deepEqual(approved.objects.map((o) => o.fields.author), [0, 1, 2].map((i) => expectedPost(6, i).author));
});
