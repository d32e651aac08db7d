import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isFeedDocument, parseFeed } from '../../../worker/extract';

const FEED_URL = 'http://example.org/feed';

test('RSS 2.0', () => {
  const rss = `<?xml version="1.0"?><rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>
    <title>Tide news</title><link>http://example.org/</link><atom:link href="http://example.org/feed" rel="self"/>
    <image><title>Logo</title><url>http://example.org/logo.png</url></image>
    <item><title>Spring &amp; neap</title><link>http://example.org/posts/1</link><guid isPermaLink="false">post-1</guid><pubDate>Mon, 06 May 2024 10:00:00 GMT</pubDate></item>
    <item><title><![CDATA[Storm <b>surge</b>]]></title><link>/posts/2</link><dc:date>2024-05-07</dc:date></item>
    <item><title>Only a guid</title><guid>http://example.org/posts/3</guid></item>
    <item><title>No link at all</title></item>
  </channel></rss>`;
  assert.deepEqual(parseFeed(Buffer.from(rss), 'application/rss+xml', FEED_URL), {
    title: 'Tide news',
    items: [
      { url: 'http://example.org/posts/1', title: 'Spring & neap', published: 'Mon, 06 May 2024 10:00:00 GMT', id: 'post-1' },
      { url: 'http://example.org/posts/2', title: 'Storm <b>surge</b>', published: '2024-05-07' },
      { url: 'http://example.org/posts/3', title: 'Only a guid', id: 'http://example.org/posts/3' },
    ],
  });
});

test('Atom', () => {
  const atom = `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom">
    <title type="text">Estuary log</title><link href="http://example.org/"/>
    <entry><title>First</title><link rel="edit" href="/edit/1"/><link rel="alternate" type="text/html" href="/log/1"/><link rel="alternate" href="/log/1-dup"/>
      <id>urn:uuid:1</id><updated>2024-05-02T00:00:00Z</updated><published>2024-05-01T00:00:00Z</published></entry>
    <entry><title>Second</title><link href="http://example.org/log/2"/><id>tag:example.org,2024:2</id><updated>2024-05-03T00:00:00Z</updated></entry>
  </feed>`;
  assert.deepEqual(parseFeed(Buffer.from(atom), 'application/atom+xml', FEED_URL), {
    title: 'Estuary log',
    items: [
      { url: 'http://example.org/log/1', title: 'First', published: '2024-05-01T00:00:00Z', id: 'urn:uuid:1' },
      { url: 'http://example.org/log/2', title: 'Second', published: '2024-05-03T00:00:00Z', id: 'tag:example.org,2024:2' },
    ],
  });
});

// Before, the <source> of an entry copied from another feed gave the entry that feed's id, date,
// title or link, whichever came first.
test("an Atom entry's <source> (the feed it was copied from) gives the entry none of its fields", () => {
  const atom = `<feed xmlns="http://www.w3.org/2005/Atom"><title>Aggregator</title>
    <entry><source><id>tag:origin.org,2024:feed</id><title>Origin feed</title><link href="http://origin.org/"/><updated>2024-01-01T00:00:00Z</updated></source>
      <title>Copied post</title><link href="/posts/copied"/><id>tag:example.org,2024:copied</id><updated>2024-05-09T00:00:00Z</updated></entry>
    <entry><source><link href="http://origin.org/"/></source><title>Only the source links</title></entry>
  </feed>`;
  assert.deepEqual(parseFeed(Buffer.from(atom), 'application/atom+xml', FEED_URL), {
    title: 'Aggregator',
    items: [{ url: 'http://example.org/posts/copied', title: 'Copied post', published: '2024-05-09T00:00:00Z', id: 'tag:example.org,2024:copied' }],
  });
});

test('Atom xml:base: each element\'s base is its own xml:base resolved against its parent\'s, from the feed\'s URL', () => {
  const atom = `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://example.org/blog/"><title>Based</title>
    <entry><title>Feed base</title><link href="2024/first-post"/></entry>
    <entry xml:base="http://example.org/news/"><title>Entry base</title><link href="second"/></entry>
    <entry xml:base="../archive/"><title>Relative entry base</title><link href="third"/></entry>
    <entry><title>Link base</title><link xml:base="/tags/" href="fourth"/></entry>
    <entry xml:base="https://mirror.example.net/m/"><title>Other host</title><link href="fifth?x=1"/></entry>
    <entry xml:base="http://[broken"><title>Unparsable base</title><link href="sixth"/></entry>
    <entry xml:base="http://example.org/news/"><title>Absolute link</title><link href="http://example.org/seventh"/></entry>
  </feed>`;
  assert.deepEqual(
    parseFeed(Buffer.from(atom), 'application/atom+xml', FEED_URL).items.map((i) => [i.title, i.url]),
    [
      ['Feed base', 'http://example.org/blog/2024/first-post'],
      ['Entry base', 'http://example.org/news/second'],
      ['Relative entry base', 'http://example.org/archive/third'],
      ['Link base', 'http://example.org/tags/fourth'],
      ['Other host', 'https://mirror.example.net/m/fifth?x=1'],
      // An xml:base that does not parse is ignored: the feed's own base stands.
      ['Unparsable base', 'http://example.org/blog/sixth'],
      ['Absolute link', 'http://example.org/seventh'],
    ],
  );
  // Relative all the way down: the feed's base against its URL, each inner one against the outer.
  const relative = `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="/blog/"><entry xml:base="2024/"><link href="first-post"/></entry></feed>`;
  assert.deepEqual(parseFeed(Buffer.from(relative), 'application/atom+xml', FEED_URL).items.map((i) => i.url), ['http://example.org/blog/2024/first-post']);
  // RSS shares the path: an item's xml:base, or its link's, is its link's base too.
  const rss = `<rss version="2.0"><channel xml:base="http://example.org/rss/"><item><link>one</link></item><item><link xml:base="/other/">two</link></item></channel></rss>`;
  assert.deepEqual(parseFeed(Buffer.from(rss), 'application/rss+xml', FEED_URL).items.map((i) => i.url), ['http://example.org/rss/one', 'http://example.org/other/two']);
});

test('feed elements are known by their namespace, whatever prefix the document gives it', () => {
  const atom = `<?xml version="1.0"?><a:feed xmlns:a="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/">
    <a:title>Prefixed log</a:title>
    <a:entry><media:title>Not the title</media:title><a:title>First</a:title><a:link rel="edit" href="/edit/1"/><a:link href="/log/1"/>
      <a:id>urn:uuid:1</a:id><a:updated>2024-05-02T00:00:00Z</a:updated><a:published>2024-05-01T00:00:00Z</a:published></a:entry>
    <a:entry xmlns:x="http://example.org/not-atom"><x:link href="/not-a-link"/><a:title>Second</a:title><a:link href="/log/2"/></a:entry>
  </a:feed>`;
  assert.deepEqual(parseFeed(Buffer.from(atom), 'application/atom+xml', FEED_URL), {
    title: 'Prefixed log',
    items: [
      { url: 'http://example.org/log/1', title: 'First', published: '2024-05-01T00:00:00Z', id: 'urn:uuid:1' },
      { url: 'http://example.org/log/2', title: 'Second' },
    ],
  });
  // A prefix declared on the element it names, and RSS 1.0 under a prefix of its own.
  const declaredOnEntry = `<feed xmlns="http://www.w3.org/2005/Atom"><atom:entry xmlns:atom="http://www.w3.org/2005/Atom"><atom:link href="/log/3"/></atom:entry></feed>`;
  assert.deepEqual(parseFeed(Buffer.from(declaredOnEntry), 'application/atom+xml', FEED_URL).items.map((i) => i.url), ['http://example.org/log/3']);
  const rdf = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:rss="http://purl.org/rss/1.0/">
    <rss:channel rdf:about="http://example.org/"><rss:title>RDF prefixed</rss:title></rss:channel>
    <rss:item rdf:about="http://example.org/r/1"><rss:title>R1</rss:title><rss:link>http://example.org/r/1</rss:link></rss:item></rdf:RDF>`;
  assert.deepEqual(parseFeed(Buffer.from(rdf), 'application/rdf+xml', FEED_URL), {
    title: 'RDF prefixed',
    items: [{ url: 'http://example.org/r/1', title: 'R1', id: 'http://example.org/r/1' }],
  });
});

test('RSS 1.0 (RDF) items take rdf:about', () => {
  const rdf = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
    <channel rdf:about="http://example.org/"><title>RDF feed</title></channel>
    <item rdf:about="http://example.org/r/1"><title>R1</title></item></rdf:RDF>`;
  assert.deepEqual(parseFeed(Buffer.from(rdf), 'application/rdf+xml', FEED_URL), {
    title: 'RDF feed',
    items: [{ url: 'http://example.org/r/1', title: 'R1', id: 'http://example.org/r/1' }],
  });
});

test('JSON Feed', () => {
  const json = JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: 'JSON tides',
    items: [
      { id: 1, url: '/j/1', title: 'One', date_published: '2024-05-01T00:00:00Z' },
      { id: '2', external_url: 'https://elsewhere.example/2', date_modified: '2024-05-02' },
      { id: '3', content_text: 'no url' },
      'junk',
    ],
  });
  assert.deepEqual(parseFeed(Buffer.from(json), 'application/feed+json', FEED_URL), {
    title: 'JSON tides',
    items: [
      { url: 'http://example.org/j/1', title: 'One', published: '2024-05-01T00:00:00Z', id: '1' },
      { url: 'https://elsewhere.example/2', title: '', published: '2024-05-02', id: '2' },
    ],
  });
  // Sniffed without a JSON content type; broken JSON gives an empty feed.
  assert.equal(parseFeed(Buffer.from(json), 'text/plain', FEED_URL).items.length, 2);
  assert.deepEqual(parseFeed(Buffer.from('{"version":"https://jsonfeed.org/version/1", "items": ['), 'application/json', FEED_URL), { title: '', items: [] });
});

test('broken feeds do not throw', () => {
  for (const body of ['<rss><channel><item><link>http://example.org/x', '<feed><entry><link href=', '\u0000\u0001', '']) {
    assert.doesNotThrow(() => parseFeed(Buffer.from(body), 'application/xml', FEED_URL));
  }
  // The end of the document closes nothing whole: a link it cuts is no article (next test).
  assert.deepEqual(parseFeed(Buffer.from('<rss><channel><item><link>http://example.org/x'), 'application/xml', FEED_URL).items.map((i) => i.url), []);
  assert.deepEqual(parseFeed(Buffer.from('<rss><channel><item><link>http://example.org/x</link>'), 'application/xml', FEED_URL).items.map((i) => i.url), ['http://example.org/x']);
});

test('a feed cut inside a value leaves out the cut value, and keeps the items whose link was read whole', () => {
  const items = (xml: string) => parseFeed(Buffer.from(xml), 'application/xml', FEED_URL);
  const rss = '<rss><channel><title>Tide news</title><item><title>One</title><link>http://example.org/posts/1</link></item><item><title>Two</title><link>http://example.org/posts/long-ti';
  assert.deepEqual(items(rss), { title: 'Tide news', items: [{ url: 'http://example.org/posts/1', title: 'One' }] });
  // Cut after the link: the item stays, without the cut title or date.
  assert.deepEqual(items('<rss><channel><item><link>http://example.org/a</link><title>A</title></item><item><link>http://example.org/b</link><pubDate>Mon, 06 May').items, [
    { url: 'http://example.org/a', title: 'A' },
    { url: 'http://example.org/b', title: '' },
  ]);
  assert.deepEqual(items('<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="http://example.org/ok"/><title>Cu').items, [{ url: 'http://example.org/ok', title: '' }]);
  // A permalink guid cut is no link either; a channel title cut is no title.
  assert.deepEqual(items('<rss><channel><item><guid>http://example.org/g'), { title: '', items: [] });
  assert.deepEqual(items('<rss><channel><title>Tide ne'), { title: '', items: [] });
});

test('isFeedDocument: RSS, Atom, RSS 1.0 and JSON Feed are feeds, empty or not; an HTML page or plain text is not', () => {
  const is = (body: string, type = 'application/xml') => isFeedDocument(Buffer.from(body), type);
  assert.equal(is('<?xml version="1.0"?><!-- c --><rss version="2.0"><channel></channel></rss>'), true);
  assert.equal(is('\uFEFF<feed xmlns="http://www.w3.org/2005/Atom"/>'), true);
  assert.equal(is('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"></rdf:RDF>'), true);
  assert.equal(is('<a:feed xmlns:a="http://www.w3.org/2005/Atom"></a:feed>'), true);
  assert.equal(is('{"version":"https://jsonfeed.org/version/1.1","items":[]}', 'application/feed+json'), true);
  assert.equal(is('{"items":[]}', 'text/plain'), true);
  assert.equal(is('<!DOCTYPE html><html><body><p>news</p></body></html>', 'text/html'), false);
  assert.equal(is('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>'), false);
  assert.equal(is('just text', 'text/plain'), false);
});
