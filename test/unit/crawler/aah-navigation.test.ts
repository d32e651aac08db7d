import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DEFAULT_KB_PATH } from '../../../worker/aah/default-kb';
import { AahRunner } from '../../../worker/crawler/aah-runner';
import { applyNavigationVerdict } from '../../../worker/crawler/stages/aah-stage';
import { extractFromResponse } from '../../../worker/extract';
import type { CrawlItem, OutLink } from '../../../worker/crawler/stage';

const ORIGIN = 'http://127.0.0.1:8080';
const fixture = (path: string) => readFileSync(new URL(`../../fixtures/aah/${path}`, import.meta.url), 'utf8').replaceAll('{{origin}}', ORIGIN);

function analyse(runner: AahRunner, url: string, html: string) {
  const item = { url, host: '127.0.0.1:8080', exchange: { status: 200, headers: { 'content-type': 'text/html' } }, html: Buffer.from(html) } as unknown as CrawlItem;
  return runner.analyse(item).verdict;
}

const link = (path: string): OutLink => ({ url: new URL(path, `${ORIGIN}/forum/`).href, kind: 'navigation', anchorText: '', context: '', source: 'a@href' });

// Found by an exploratory session: one host with a WordPress blog at / and a phpBB board under
// /forum/. Detection runs once per host, so the board's pages got WordPress's rules; none matched
// there, and every navigation link of those pages was excluded ('aah'): the crawl stored no topic.
test("a page where the host's application matches nothing keeps its links (no follow rule of that application vouches against them)", () => {
  const runner = AahRunner.create(readFileSync(DEFAULT_KB_PATH, 'utf8'), 'keep');
  assert.equal(analyse(runner, `${ORIGIN}/`, fixture('wordpress/home.html'))?.application, 'wordpress');
  const board = analyse(runner, `${ORIGIN}/forum/viewforum.php?f=2`, fixture('phpbb/viewforum.html'));
  assert.equal(board?.application, 'wordpress', 'the host is still taken for WordPress (detection runs again after 3 misses)');
  const links = [link('./viewtopic.php?t=1'), link('./viewtopic.php?t=3')];
  applyNavigationVerdict(links, board!, 1_000);
  assert.deepEqual(links.map((l) => l.excludedReason), [undefined, undefined]);
});

test("a page where the host's application's rules match keeps only the links its follow rules select", () => {
  const runner = AahRunner.create(readFileSync(DEFAULT_KB_PATH, 'utf8'), 'keep');
  const forum = analyse(runner, `${ORIGIN}/forum/viewforum.php?f=2`, fixture('phpbb/viewforum.html'));
  assert.equal(forum?.application, 'phpbb');
  const links = [link('./viewtopic.php?t=1'), link('./memberlist.php?mode=team'), link('/app.php/help/faq')];
  applyNavigationVerdict(links, forum!, 1_000);
  assert.deepEqual(links.slice(0, 3).map((l) => l.excludedReason), [undefined, 'aah', 'aah']);
});

/** A knowledge base of one application, detected by `<body id="{id}">`, with one follow rule. */
const oneRuleKb = (id: string, bonus: number, select: string) => `<?xml version="1.0" encoding="UTF-8"?>
<knowledge-base version="1">
  <application id="${id}" name="${id}" category="news">
    <detect><xpath>//body[@id='${id}']</xpath></detect>
    <navigate id="${id}" bonus="${bonus}" select="${select}"/>
  </application>
</knowledge-base>`;

const DATA_HREF_KB = oneRuleKb('tiles', 0.6, "//div[@class='tile']/@data-href");

// Found by an exploratory session: the knowledge-base tester showed such a rule's URLs followed,
// while the crawl only ever marked the links its extractor had found, and dropped them.
test('a follow rule that selects a URL the link extraction did not find adds it, with its bonus, up to the page\'s link cap', () => {
  const runner = AahRunner.create(DATA_HREF_KB, 'keep');
  const page = `<body id="tiles"><div class="tile" data-href="/story/1">One</div><div class="tile" data-href="story/2#top">Two</div>
    <div class="tile" data-href="http://a..b/">Bad host</div><a href="/about">About</a><div class="tile" data-href="/about">About</div></body>`;
  const verdict = analyse(runner, `${ORIGIN}/news/`, page)!;
  assert.equal(verdict.application, 'tiles');
  const about: OutLink = { url: `${ORIGIN}/about`, kind: 'navigation', anchorText: 'About', context: '', source: 'a@href' };
  const links = [about];
  applyNavigationVerdict(links, verdict, 1_000);
  assert.deepEqual(links.map((l) => [l.url, l.source, l.aahBonus, l.excludedReason]), [
    [`${ORIGIN}/about`, 'a@href', 0.6, undefined],
    [`${ORIGIN}/story/1`, 'aah', 0.6, undefined],
    [`${ORIGIN}/news/story/2`, 'aah', 0.6, undefined],
  ]);
  const capped = [{ ...about }];
  applyNavigationVerdict(capped, verdict, 2);
  assert.deepEqual(capped.map((l) => l.url), [`${ORIGIN}/about`, `${ORIGIN}/story/1`]);
});

const TOPICS_KB = oneRuleKb('board', 0.7, "//a[@class='topic']");

// Found by a differential exploration: the AAH resolved its rules' links with new URL() (the query in
// UTF-8, NBSP trimmed), where the link extraction encodes a legacy page's queries in its encoding and
// keeps NBSP (cd3adff, and the trimming fix): on a windows-1252 board, the topic the crawl found,
// ?q=caf%E9, was excluded ('aah') and ?q=caf%C3%A9, which Chromium never asks for, added in its place.
test("a rule's links are the URLs the link extraction found, in a legacy page's encoding and with its <base>", () => {
  const page = Buffer.from('<html><head><base href="/board/"></head><body id="board"><a class="topic" href="topic?q=caf\xe9">Caf\xe9</a>'
    + '<a class="topic" href="/t/2&nbsp;">Two</a><a class="topic" href=" t3 ">Three</a><a href="/faq">FAQ</a></body></html>', 'latin1');
  const headers = { 'content-type': 'text/html; charset=windows-1252' };
  const extracted = extractFromResponse({ url: `${ORIGIN}/board/index.php`, status: 200, headers, body: page, maxDecodedBytes: 1e6 });
  const links: OutLink[] = extracted.links.map((l) => ({ ...l }));
  const item = { url: `${ORIGIN}/board/index.php`, host: '127.0.0.1:8080', exchange: { status: 200, headers }, html: page } as unknown as CrawlItem;
  const verdict = AahRunner.create(TOPICS_KB, 'keep').analyse(item).verdict!;
  assert.equal(verdict.application, 'board');
  applyNavigationVerdict(links, verdict, 1_000);
  assert.deepEqual(links.map((l) => [l.url, l.source, l.aahBonus, l.excludedReason]), [
    [`${ORIGIN}/board/topic?q=caf%E9`, 'a@href', 0.7, undefined],
    [`${ORIGIN}/t/2%C2%A0`, 'a@href', 0.7, undefined],
    [`${ORIGIN}/board/t3`, 'a@href', 0.7, undefined],
    [`${ORIGIN}/faq`, 'a@href', undefined, 'aah'],
  ]);
});

// A carry-over of the differential exploration: the link extraction drops an in-page anchor
// (`#comments` leads to the page itself, no new document), but a follow rule selecting it named the
// page, which the verdict then added as a navigation link of its own (source 'aah'); a do-not-follow
// rule selecting `#top` excluded an explicit link to the page. A <base> naming another document makes
// `#x` a link to that document, for both. With query handling, a base naming the page once its query
// is sorted leaves `#x` in the page, for both.
test("a rule selecting an in-page anchor (#x) selects no link, as the link extraction finds none; under a base naming another document it is that document", () => {
  const kb = `<?xml version="1.0" encoding="UTF-8"?>
<knowledge-base version="1">
  <application id="board" name="board" category="forum">
    <detect><xpath>//body[@id='board']</xpath></detect>
    <navigate id="topics" bonus="0.7" select="//a[@class='topic']"/>
    <navigate id="top" follow="false" select="//a[@class='top']"/>
  </application>
</knowledge-base>`;
  const verdictOf = (url: string, html: string, queryHandling: 'keep' | 'sort') => {
    const headers = { 'content-type': 'text/html' };
    const extracted = extractFromResponse({ url, status: 200, headers, body: Buffer.from(html), maxDecodedBytes: 1e6, queryHandling });
    const links: OutLink[] = extracted.links.map((l) => ({ ...l }));
    const item = { url, host: '127.0.0.1:8080', exchange: { status: 200, headers }, html: Buffer.from(html) } as unknown as CrawlItem;
    const verdict = AahRunner.create(kb, queryHandling).analyse(item).verdict!;
    assert.equal(verdict.application, 'board');
    applyNavigationVerdict(links, verdict, 1_000);
    return links.map((l) => [l.url, l.source, l.aahBonus, l.excludedReason]);
  };
  // The in-page anchor selected by a follow rule: no link (it was the page, added from the rule).
  assert.deepEqual(verdictOf(`${ORIGIN}/t/1`, '<body id="board"><a class="topic" href="/t/2">Two</a><a class="topic" href=" #comments">Comments</a></body>', 'keep'), [
    [`${ORIGIN}/t/2`, 'a@href', 0.7, undefined],
  ]);
  // Selected by a do-not-follow rule: it excludes nothing (it excluded the page's explicit link to itself).
  assert.deepEqual(verdictOf(`${ORIGIN}/t/1`, '<body id="board"><a class="topic" href="/t/1">This topic</a><a class="top" href="#top">Top</a></body>', 'keep'), [
    [`${ORIGIN}/t/1`, 'a@href', 0.7, undefined],
  ]);
  // Under a base naming another document, `#x` is a link to it, for both.
  assert.deepEqual(verdictOf(`${ORIGIN}/t/1`, '<head><base href="/t/3"></head><body id="board"><a class="topic" href="#comments">Comments</a></body>', 'keep'), [
    [`${ORIGIN}/t/3`, 'a@href', 0.7, undefined],
  ]);
  // A base naming the page once the crawl's query handling applies leaves `#x` in the page, for both.
  assert.deepEqual(verdictOf(`${ORIGIN}/t?a=1&b=2`, '<head><base href="/t?b=2&amp;a=1"></head><body id="board"><a class="topic" href="/t/2">Two</a><a class="topic" href="#comments">Comments</a></body>', 'sort'), [
    [`${ORIGIN}/t/2`, 'a@href', 0.7, undefined],
  ]);
});
