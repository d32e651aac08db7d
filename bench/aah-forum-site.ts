/**
 * A generated phpBB-style forum for the AAH crawl benchmark, served on loopback: 2 forums of
 * 10 topics, each topic 3 pages of 10 posts (600 posts), plus everything a real board links
 * to from every page: login, register, FAQ, search, member list, profiles, per-author search
 * results, per-post permalinks, quote/edit/reply forms and reports.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FORUMS = 2;
export const TOPICS_PER_FORUM = 10;
export const PAGES_PER_TOPIC = 3;
export const POSTS_PER_PAGE = 10;
const TOPICS_PER_LIST_PAGE = 5;
const USERS = 12;

const topicsOf = (f: number): number[] => Array.from({ length: TOPICS_PER_FORUM }, (_, i) => (f - 1) * TOPICS_PER_FORUM + i + 1);
const postId = (t: number, page: number, i: number): number => t * 1000 + page * POSTS_PER_PAGE + i;
const authorOf = (id: number): number => (id % USERS) + 2;

/** Every post id of the board: what a complete capture must contain. */
export function allPostIds(): number[] {
  return topicsOf(1).concat(...Array.from({ length: FORUMS - 1 }, (_, f) => topicsOf(f + 2))).flatMap((t) =>
    Array.from({ length: PAGES_PER_TOPIC * POSTS_PER_PAGE }, (_, k) => postId(t, Math.floor(k / POSTS_PER_PAGE), k % POSTS_PER_PAGE)),
  );
}

function layout(title: string, section: string, body: string): string {
  return `<!DOCTYPE html><html dir="ltr" lang="en-gb"><head><meta charset="utf-8"><title>${title} - Bench Board</title>
<link href="./styles/prosilver/theme/stylesheet.css?assets_version=12" rel="stylesheet"></head>
<body id="phpbb" class="nojs notouch section-${section} ltr"><div id="wrap" class="wrap">
<div class="navbar"><ul class="nav-main linklist"><li><a href="./index.php">Board index</a></li><li><a href="./faq.php">FAQ</a></li>
<li><a href="./ucp.php?mode=login">Login</a></li><li><a href="./ucp.php?mode=register">Register</a></li>
<li><a href="./memberlist.php">Members</a></li><li><a href="./memberlist.php?mode=team">The team</a></li><li><a href="./search.php">Search</a></li></ul></div>
<div id="page-body" class="page-body">${body}</div>
<div id="page-footer" class="page-footer"><div class="copyright">Powered by <a href="https://www.phpbb.com/">phpBB</a>&reg; Forum Software &copy; phpBB Limited</div></div></div></body></html>`;
}

function topicPage(t: number, page: number): string {
  const pager = Array.from({ length: PAGES_PER_TOPIC }, (_, p) => `<li><a class="button" href="./viewtopic.php?t=${t}&amp;start=${p * POSTS_PER_PAGE}">${p + 1}</a></li>`).join('');
  const posts = Array.from({ length: POSTS_PER_PAGE }, (_, i) => {
    const id = postId(t, page, i);
    const u = authorOf(id);
    return `<div id="p${id}" class="post has-profile bg${(i % 2) + 1}"><div class="inner">
<dl class="postprofile"><dt><a href="./memberlist.php?mode=viewprofile&amp;u=${u}" class="username">user${u}</a></dt></dl>
<div class="postbody"><div id="post_content${id}"><h3><a href="./viewtopic.php?p=${id}#p${id}">Re: Topic ${t}</a></h3>
<ul class="post-buttons"><li><a href="./posting.php?mode=edit&amp;p=${id}">Edit</a></li><li><a href="./posting.php?mode=quote&amp;p=${id}">Quote</a></li><li><a href="./report.php?p=${id}">Report</a></li></ul>
<p class="author"><a href="./viewtopic.php?p=${id}#p${id}">Post</a> by <strong><a href="./memberlist.php?mode=viewprofile&amp;u=${u}" class="username">user${u}</a></strong> &raquo; <time datetime="2024-01-01T10:00:00+00:00">Mon Jan 01, 2024</time></p>
<div class="content">Post ${id}: ${'text '.repeat(30)}</div></div></div></div></div>`;
  }).join('\n');
  const f = Math.ceil(t / TOPICS_PER_FORUM);
  return layout(`Topic ${t}`, 'viewtopic', `<h2 class="topic-title"><a href="./viewtopic.php?t=${t}">Topic ${t}</a></h2>
<div class="action-bar"><a href="./posting.php?mode=reply&amp;t=${t}" class="button">Post Reply</a><div class="pagination"><ul>${pager}</ul></div></div>
${posts}<p class="jumpbox-return"><a href="./viewforum.php?f=${f}">Return to forum ${f}</a></p>`);
}

function forumPage(f: number, start: number): string {
  const topics = topicsOf(f).slice(start, start + TOPICS_PER_LIST_PAGE).map((t) => `<li class="row"><dl class="row-item"><dt><div class="list-inner">
<a href="./viewtopic.php?t=${t}" class="topictitle">Topic ${t}</a>
<div class="pagination"><ul>${Array.from({ length: PAGES_PER_TOPIC - 1 }, (_, p) => `<li><a class="button" href="./viewtopic.php?t=${t}&amp;start=${(p + 1) * POSTS_PER_PAGE}">${p + 2}</a></li>`).join('')}</ul></div>
by <a href="./memberlist.php?mode=viewprofile&amp;u=${authorOf(t)}" class="username">user${authorOf(t)}</a></div></dt></dl></li>`).join('\n');
  const pager = Array.from({ length: TOPICS_PER_FORUM / TOPICS_PER_LIST_PAGE }, (_, p) => `<li><a class="button" href="./viewforum.php?f=${f}&amp;start=${p * TOPICS_PER_LIST_PAGE}">${p + 1}</a></li>`).join('');
  return layout(`Forum ${f}`, 'viewforum', `<h2 class="forum-title"><a href="./viewforum.php?f=${f}">Forum ${f}</a></h2>
<div class="action-bar"><a href="./posting.php?mode=post&amp;f=${f}" class="button">New Topic</a><div class="pagination"><ul>${pager}</ul></div></div>
<ul class="topiclist topics">${topics}</ul>`);
}

function memberList(): string {
  return layout('Members', 'memberlist', Array.from({ length: USERS }, (_, i) => `<p><a href="./memberlist.php?mode=viewprofile&amp;u=${i + 2}" class="username">user${i + 2}</a> <a href="./search.php?author_id=${i + 2}&amp;sr=posts">posts</a></p>`).join('\n'));
}

function searchResults(u: number): string {
  const ids = allPostIds().filter((id) => authorOf(id) === u);
  return layout('Search', 'search', ids.map((id) => `<p><a href="./viewtopic.php?p=${id}#p${id}">Post ${id}</a></p>`).join('\n'));
}

function route(url: URL): string | undefined {
  const q = url.searchParams;
  switch (url.pathname) {
    case '/':
    case '/index.php':
      return layout('Index', 'index', Array.from({ length: FORUMS }, (_, f) => `<p><a href="./viewforum.php?f=${f + 1}" class="forumtitle">Forum ${f + 1}</a></p>`).join(''));
    case '/viewforum.php':
      return forumPage(Number(q.get('f')), Number(q.get('start') ?? 0));
    case '/viewtopic.php': {
      if (q.has('p')) {
        const id = Number(q.get('p'));
        return topicPage(Math.floor(id / 1000), Math.floor((id % 1000) / POSTS_PER_PAGE));
      }
      return topicPage(Number(q.get('t')), Math.floor(Number(q.get('start') ?? 0) / POSTS_PER_PAGE));
    }
    case '/memberlist.php':
      return q.get('mode') === 'viewprofile'
        ? layout(`user${q.get('u')}`, 'memberlist', `<a href="./search.php?author_id=${q.get('u')}&amp;sr=posts">Search user's posts</a>`)
        : memberList();
    case '/search.php':
      return q.has('author_id') ? searchResults(Number(q.get('author_id'))) : layout('Search', 'search', '<form action="./search.php"></form>');
    case '/ucp.php':
    case '/posting.php':
    case '/report.php':
    case '/faq.php':
      return layout(url.pathname.slice(1), 'ucp', '<form method="post"><input name="x"></form>');
    default:
      return undefined;
  }
}

/** Starts the board on 127.0.0.1 (random port). */
export async function startForumSite(): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    const html = route(new URL(req.url ?? '/', 'http://board'));
    if (html === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
