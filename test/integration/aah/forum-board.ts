/**
 * A small phpBB board for the AAH crawl test, served on 127.0.0.1: an index, two forums, three
 * topics in prosilver's default markup (topic 1 has two pages) and six topics rendered with a
 * custom theme that renamed the post markup (test/fixtures/aah/phpbb-renamed/topic-page.ts), so
 * the crawl must adapt the post rule. Every page links to login, register, posting, profiles
 * and search, as a real board does. Every request is logged.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectedPost, renamedTopicPage } from '../../fixtures/aah/phpbb-renamed/topic-page';

export interface Post {
  title: string;
  author: string;
  date: string;
  body: string;
}

/** Prosilver topics (forum 1) and their page count; renamed topics (forum 2). */
export const PROSILVER_TOPICS: Record<number, number> = { 1: 2, 2: 1, 3: 1 };
export const RENAMED_TOPICS = [21, 22, 23, 24, 25, 26];
const POSTS_PER_PAGE = 3;
const RENAMED_POSTS = 3;
const POSTERS = ['lockkeeper', 'pilot', 'harbourmaster', 'deckhand', 'skipper'];

/** Ground truth of prosilver post `i` of page `page` (0-based) of topic `t`. */
export function prosilverPost(t: number, page: number, i: number): Post {
  const n = page * POSTS_PER_PAGE + i;
  return {
    title: n === 0 ? `Mooring lines in topic ${t}` : `Re: Mooring lines in topic ${t}`,
    author: POSTERS[(t + n) % POSTERS.length]!,
    date: `2024-03-0${t}T0${n}:15:00+00:00`,
    body: `Answer ${n} in topic ${t}: double the bow line when the spring tide comes.`,
  };
}

/** Topic page URL paths (as linked from the forums and pagination) → the posts each page holds. */
export function groundTruth(): Map<string, Post[]> {
  const pages = new Map<string, Post[]>();
  for (const [t, count] of Object.entries(PROSILVER_TOPICS).map(([t, c]) => [Number(t), c])) {
    for (let p = 0; p < count; p++) pages.set(topicPath(t, p), Array.from({ length: POSTS_PER_PAGE }, (_, i) => prosilverPost(t, p, i)));
  }
  for (const t of RENAMED_TOPICS) pages.set(`/viewtopic.php?t=${t}`, Array.from({ length: RENAMED_POSTS }, (_, i) => expectedPost(t, i)));
  return pages;
}

const topicPath = (t: number, page: number): string => (page === 0 ? `/viewtopic.php?t=${t}` : `/viewtopic.php?t=${t}&start=${page * POSTS_PER_PAGE}`);
const href = (path: string): string => `.${path.replaceAll('&', '&amp;')}`;

function layout(title: string, section: string, body: string): string {
  return `<!DOCTYPE html><html dir="ltr" lang="en-gb"><head><meta charset="utf-8"><title>${title} - Lock Board</title>
<link href="./styles/prosilver/theme/stylesheet.css?assets_version=3" rel="stylesheet"></head>
<body id="phpbb" class="nojs notouch section-${section} ltr"><div id="wrap" class="wrap">
<div class="navbar"><ul class="nav-main linklist"><li><a href="./index.php">Board index</a></li>
<li><a href="./ucp.php?mode=login">Login</a></li><li><a href="./ucp.php?mode=register">Register</a></li>
<li><a href="./memberlist.php">Members</a></li><li><a href="./search.php">Search</a></li></ul></div>
<div id="page-body" class="page-body">${body}</div>
<div id="page-footer" class="page-footer"><div class="copyright">Powered by <a href="https://www.phpbb.com/">phpBB</a>&reg; Forum Software &copy; phpBB Limited</div></div></div></body></html>`;
}

function prosilverTopic(t: number, page: number): string {
  const pager = Array.from({ length: PROSILVER_TOPICS[t]! }, (_, p) => `<li><a class="button" href="${href(topicPath(t, p))}">${p + 1}</a></li>`).join('');
  const posts = Array.from({ length: POSTS_PER_PAGE }, (_, i) => {
    const post = prosilverPost(t, page, i);
    const id = t * 100 + page * POSTS_PER_PAGE + i;
    const u = POSTERS.indexOf(post.author) + 2;
    return `<div id="p${id}" class="post has-profile bg${(i % 2) + 1}"><div class="inner">
<dl class="postprofile"><dt><a href="./memberlist.php?mode=viewprofile&amp;u=${u}" class="username">${post.author}</a></dt>
<dd class="profile-posts"><a href="./search.php?author_id=${u}&amp;sr=posts">12</a></dd></dl>
<div class="postbody"><div id="post_content${id}"><h3><a href="./viewtopic.php?p=${id}#p${id}">${post.title}</a></h3>
<ul class="post-buttons"><li><a href="./posting.php?mode=edit&amp;p=${id}">Edit</a></li><li><a href="./posting.php?mode=quote&amp;p=${id}">Quote</a></li></ul>
<p class="author"><a href="./viewtopic.php?p=${id}#p${id}">Post</a> by <strong><a href="./memberlist.php?mode=viewprofile&amp;u=${u}" class="username">${post.author}</a></strong> &raquo; <time datetime="${post.date}">${post.date.slice(0, 10)}</time></p>
<div class="content">${post.body}</div></div></div></div></div>`;
  }).join('\n');
  return layout(`Topic ${t}`, 'viewtopic', `<h2 class="topic-title"><a href="./viewtopic.php?t=${t}">Mooring lines in topic ${t}</a></h2>
<div class="action-bar"><a href="./posting.php?mode=reply&amp;t=${t}" class="button">Post Reply</a><div class="pagination"><ul>${pager}</ul></div></div>
${posts}<p class="jumpbox-return"><a href="./viewforum.php?f=1">Return to forum 1</a></p>`);
}

function forumPage(f: number): string {
  const topics = f === 1 ? Object.keys(PROSILVER_TOPICS).map(Number) : RENAMED_TOPICS;
  const rows = topics.map((t) => {
    const pages = f === 1 ? PROSILVER_TOPICS[t]! : 1;
    const pager = Array.from({ length: pages - 1 }, (_, p) => `<li><a class="button" href="${href(topicPath(t, p + 1))}">${p + 2}</a></li>`).join('');
    return `<li class="row"><dl class="row-item"><dt><div class="list-inner"><a href="./viewtopic.php?t=${t}" class="topictitle">Topic ${t}</a>
<div class="pagination"><ul>${pager}</ul></div> by <a href="./memberlist.php?mode=viewprofile&amp;u=3" class="username">pilot</a></div></dt></dl></li>`;
  }).join('\n');
  return layout(`Forum ${f}`, 'viewforum', `<h2 class="forum-title"><a href="./viewforum.php?f=${f}">Forum ${f}</a></h2>
<div class="action-bar"><a href="./posting.php?mode=post&amp;f=${f}" class="button">New Topic</a></div>
<ul class="topiclist topics">${rows}</ul>`);
}

export interface BoardOptions {
  /** Serve forum 2 (renamed template from the start). Default true. */
  renamedForum?: boolean;
  /** Prosilver topic pages asked for again get the renamed template: a redesign between crawls. */
  renameOnRefetch?: boolean;
}

function route(path: string, o: BoardOptions, servedBefore: boolean): string | undefined {
  const url = new URL(path, 'http://board');
  const q = url.searchParams;
  const forums = o.renamedForum === false ? ['1'] : ['1', '2'];
  if (url.pathname === '/' || url.pathname === '/index.php') {
    return layout('Index', 'index', forums.map((f) => `<p><a href="./viewforum.php?f=${f}" class="forumtitle">Forum ${f}</a></p>`).join(''));
  }
  if (url.pathname === '/viewforum.php' && forums.includes(q.get('f') ?? '')) return forumPage(Number(q.get('f')));
  if (url.pathname === '/viewtopic.php' && q.has('t')) {
    const t = Number(q.get('t'));
    if (forums.includes('2') && RENAMED_TOPICS.includes(t) && !q.has('start')) return renamedTopicPage(t, RENAMED_POSTS);
    const page = Number(q.get('start') ?? 0) / POSTS_PER_PAGE;
    if (PROSILVER_TOPICS[t] && Number.isInteger(page) && page < PROSILVER_TOPICS[t]!) {
      return o.renameOnRefetch && servedBefore ? renamedTopicPage(t, RENAMED_POSTS) : prosilverTopic(t, page);
    }
  }
  // Login, posting, profiles and search answer too: a crawler that follows them gets a page.
  if (['/ucp.php', '/posting.php', '/memberlist.php', '/search.php'].includes(url.pathname)) return layout('Form', 'ucp', '<form method="post"><input name="x"></form>');
  return undefined;
}

/** Starts the board on 127.0.0.1 (random port); `requests` lists every path and query asked for. */
export async function startForumBoard(o: BoardOptions = {}): Promise<{ origin: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const servedBefore = requests.includes(req.url ?? '');
    requests.push(req.url ?? '');
    const html = route(req.url ?? '/', o, servedBefore);
    if (html === undefined) res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
