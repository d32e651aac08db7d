/**
 * Generated pages for the AAH benchmarks: a phpBB-like topic page of about `targetBytes`, with the
 * navigation clutter a real forum has (login, search, member list, profile, post-reply links).
 */

/** One forum topic page of roughly `targetBytes` bytes (posts are added until the size is reached). */
export function generateTopicPage(targetBytes: number, topic = 1, page = 1): string {
  const head = `<!DOCTYPE html><html dir="ltr" lang="en-gb"><head><meta charset="utf-8">
<title>Topic ${topic} - Bench Board</title><link href="./styles/prosilver/theme/stylesheet.css?assets_version=12" rel="stylesheet">
</head><body id="phpbb" class="nojs notouch section-viewtopic ltr "><div id="wrap" class="wrap">
<div class="navbar"><ul class="nav-main linklist"><li><a href="./faq.php">FAQ</a></li>
<li><a href="./ucp.php?mode=login&amp;redirect=viewtopic.php%3Ft%3D${topic}">Login</a></li>
<li><a href="./ucp.php?mode=register">Register</a></li><li><a href="./memberlist.php">Members</a></li>
<li><a href="./search.php">Search</a></li></ul></div>
<h2 class="topic-title"><a href="./viewtopic.php?t=${topic}">Topic ${topic}</a></h2>
<div class="action-bar bar-top"><a href="./posting.php?mode=reply&amp;t=${topic}" class="button">Post Reply</a>
<div class="pagination"><ul><li><a class="button" href="./viewtopic.php?t=${topic}&amp;start=0">1</a></li>
<li><a class="button" href="./viewtopic.php?t=${topic}&amp;start=20">2</a></li></ul></div></div>`;
  const tail = `<p class="jumpbox-return"><a href="./viewforum.php?f=2" class="left-box arrow-left">Return to Board</a></p>
</div><div id="page-footer" class="page-footer"><div class="copyright">Powered by <a href="https://www.phpbb.com/">phpBB</a>&reg; Forum Software &copy; phpBB Limited</div></div></body></html>`;
  const posts: string[] = [];
  let size = head.length + tail.length;
  for (let i = 0; size < targetBytes; i++) {
    const id = topic * 1000 + page * 100 + i;
    const post = `<div id="p${id}" class="post has-profile bg${(i % 2) + 1}"><div class="inner">
<dl class="postprofile" id="profile${id}"><dt class="has-profile-rank"><a href="./memberlist.php?mode=viewprofile&amp;u=${50 + (i % 7)}" class="username">user${i % 7}</a></dt>
<dd class="profile-rank">Member</dd><dd class="profile-posts"><strong>Posts:</strong> ${10 + i}</dd></dl>
<div class="postbody"><div id="post_content${id}"><h3${i === 0 ? ' class="first"' : ''}><a href="./viewtopic.php?p=${id}#p${id}">Re: Topic ${topic} post ${i}</a></h3>
<ul class="post-buttons"><li><a href="./posting.php?mode=quote&amp;p=${id}" class="button button-icon-only">Quote</a></li></ul>
<p class="author"><a href="./viewtopic.php?p=${id}#p${id}">Post</a><span class="responsive-hide">by <strong><a href="./memberlist.php?mode=viewprofile&amp;u=${50 + (i % 7)}" class="username">user${i % 7}</a></strong> &raquo; </span><time datetime="2024-03-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00+00:00">Fri Mar ${1 + (i % 28)}, 2024 10:00 am</time></p>
<div class="content">Body of post ${i} in topic ${topic}. ${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(4)}<br>Second line with a <a href="https://example.org/ref${i}" class="postlink">reference</a>.</div>
</div></div><div class="back2top"><a href="#top" class="top" title="Top">Top</a></div></div></div><hr class="divider">`;
    posts.push(post);
    size += post.length;
  }
  return head + posts.join('\n') + tail;
}

/** About twenty expressions of the kinds a knowledge base evaluates on every page. */
export const BENCH_EXPRESSIONS: readonly string[] = [
  "//body[@id='phpbb']",
  "//a[contains(@href,'ucp.php?mode=login')]",
  "//a[contains(@href,'posting.php')]",
  "//a[contains(@href,'memberlist.php')]",
  "//div[contains(concat(' ',normalize-space(@class),' '),' post ')]",
  "//div[contains(concat(' ',normalize-space(@class),' '),' post ')]//p[@class='author']//a[contains(@class,'username')]",
  "//div[@class='postbody']//h3/a",
  "//div[@class='content']",
  "//time/@datetime",
  "//div[@class='pagination']//a[starts-with(@href,'./viewtopic.php')]/@href",
  "//a[normalize-space(.)='Login']",
  "//div[contains(@class,'post')][1]//h3",
  "//div[contains(@class,'post')][position() <= 3]",
  "//h2[@class='topic-title']/a | //div[@class='pagination']//a",
  "//a[@class='username']/ancestor::div[contains(@class,'post')]/@id",
  "//script[contains(@src,'vbulletin_core.js')]",
  "//meta[@name='generator']/@content",
  "//div[@id='mw-content-text']",
  "//a[contains(@href,'viewforum.php')]",
  "//div[@class='copyright']/a[contains(@href,'phpbb.com')]",
];
