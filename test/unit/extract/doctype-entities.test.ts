import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFeed, parseSitemap, unexpandedDtd, unexpandedDtdNote } from '../../../worker/extract';

const urlset = (locs: string, doctype: string) => `<?xml version="1.0"?>\n<!-- generated -->\n${doctype}\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs}</urlset>`;

test('a DOCTYPE declaring entities: how many, how many external, and the references past it left as written', () => {
  const xml = urlset(
    '<url><loc>http://a.example/&xxe;&big;</loc></url><url><loc>http://a.example/?a=1&amp;b=&#38;&big;</loc></url>',
    '<!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY big "B>I]G &inner;"><!-- <!ENTITY no "x"> --><!ENTITY % remote PUBLIC "-//x//" \'http://evil.example/x.dtd\'>%remote;]>',
  );
  assert.deepEqual(unexpandedDtd(xml), { entities: 3, externalEntities: 2, references: 3, names: ['xxe', 'big'] });
});

test('an external DTD is named by its system literal (PUBLIC or SYSTEM), with or without an internal subset', () => {
  const rss091 = '<?xml version="1.0"?><!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd"><rss version="0.91"><channel><title>Caf&eacute;&nbsp;</title></channel></rss>';
  assert.deepEqual(unexpandedDtd(rss091), { entities: 0, externalEntities: 0, externalDtd: 'http://my.netscape.com/publish/formats/rss-0.91.dtd', references: 2, names: ['eacute', 'nbsp'] });
  assert.deepEqual(unexpandedDtd(`<!DOCTYPE urlset SYSTEM 'http://e.example/e.dtd' [<!ENTITY a "b">]><urlset/>`), { entities: 1, externalEntities: 0, externalDtd: 'http://e.example/e.dtd', references: 0, names: [] });
  assert.equal(unexpandedDtd('<!DOCTYPE rss PUBLIC "-//only the public id//EN"><rss/>')?.externalDtd, '-//only the public id//EN');
});

test('no note without a DOCTYPE, with one that declares no entity and names no DTD, or with one past the root element', () => {
  assert.equal(unexpandedDtd('<?xml version="1.0"?><rss><channel><title>&nbsp;</title></channel></rss>'), null);
  assert.equal(unexpandedDtd('<!DOCTYPE rss><rss><title>&nbsp;</title></rss>'), null);
  assert.equal(unexpandedDtd('<!DOCTYPE rss [<!ELEMENT rss ANY><!ATTLIST rss version CDATA "2.0">]><rss/>'), null);
  assert.equal(unexpandedDtd('<rss/><!DOCTYPE rss [<!ENTITY a "b">]>'), null);
  assert.equal(unexpandedDtd(''), null);
});

test('references inside comments and CDATA sections are text, not references; the five predefined and character references are no entity', () => {
  const xml = '<!DOCTYPE feed [<!ENTITY e "x">]><feed><!-- &e; --><title><![CDATA[&e;]]>&lt;&gt;&quot;&apos;&amp;&#233;&#xE9;&e;</title><link href="http://a.example/?&e;"/></feed>';
  assert.deepEqual(unexpandedDtd(xml), { entities: 1, externalEntities: 0, references: 2, names: ['e'] });
  // A comment that never closes holds the rest of the document.
  assert.equal(unexpandedDtd('<!DOCTYPE feed [<!ENTITY e "x">]><feed><!-- &e; &e;')?.references, 0);
});

test('a document cut inside its DOCTYPE counts the declarations it began, and no reference', () => {
  assert.deepEqual(unexpandedDtd('<!DOCTYPE x [<!ENTITY a "1"><!ENTITY b "2'), { entities: 2, externalEntities: 0, references: 0, names: [] });
  assert.deepEqual(unexpandedDtd('<!DOCTYPE x [<!ENTITY a "1">'), { entities: 1, externalEntities: 0, references: 0, names: [] });
});

test('billion laughs: the entities counted, not expanded; five names kept of many', () => {
  const laughs = `<!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`).join('')}]>`;
  const body = Array.from({ length: 10 }, (_, i) => `<url><loc>http://a.example/&lol${i || ''};</loc></url>`).join('');
  const dtd = unexpandedDtd(urlset(body, laughs))!;
  assert.deepEqual(dtd, { entities: 10, externalEntities: 0, references: 10, names: ['lol', 'lol1', 'lol2', 'lol3', 'lol4'] });
  assert.equal(
    unexpandedDtdNote('sitemap', dtd),
    "the sitemap's DOCTYPE declares 10 entities (not expanded), as only XML's predefined entities and character references are read: 10 entity references left as written (&lol;, &lol1;, &lol2;, &lol3;, &lol4;…)",
  );
});

test('the note: external entities and DTD not fetched, one reference, none; long names and literals cut', () => {
  assert.equal(
    unexpandedDtdNote('feed', { entities: 2, externalEntities: 1, externalDtd: 'http://e.example/e.dtd', references: 1, names: ['xxe'] }),
    `the feed's DOCTYPE declares 2 entities, 1 of them external (not expanded nor fetched) and names the external DTD "http://e.example/e.dtd" (not fetched), as only XML's predefined entities and character references are read: 1 entity reference left as written (&xxe;)`,
  );
  assert.equal(
    unexpandedDtdNote('feed', { entities: 1, externalEntities: 0, references: 0, names: [] }),
    `the feed's DOCTYPE declares 1 entity (not expanded), as only XML's predefined entities and character references are read: no entity reference in the document`,
  );
  const long = unexpandedDtdNote('sitemap', { entities: 0, externalEntities: 0, externalDtd: `http://e.example/${'d'.repeat(500)}`, references: 1, names: ['n'.repeat(500)] });
  assert.ok(long.includes(`${'d'.repeat(100 - 'http://e.example/'.length)}…" (not fetched)`), long);
  assert.ok(long.includes(`(&${'n'.repeat(100)}…;)`), long);
});

test('parseSitemap and parseFeed say what of the DOCTYPE was left undone; a document without one says nothing', () => {
  const opts = { url: 'http://a.example/sitemap.xml', contentType: 'application/xml', maxDecodedBytes: 1_000_000 };
  const map = parseSitemap(Buffer.from(urlset('<url><loc>http://a.example/&e;</loc></url>', '<!DOCTYPE urlset [<!ENTITY e "x">]>')), opts);
  assert.deepEqual(map.unexpandedDtd, { entities: 1, externalEntities: 0, references: 1, names: ['e'] });
  assert.equal(parseSitemap(Buffer.from(urlset('<url><loc>http://a.example/</loc></url>', '')), opts).unexpandedDtd, undefined);
  assert.equal(parseSitemap(Buffer.from('http://a.example/&e;\n'), { ...opts, contentType: 'text/plain' }).unexpandedDtd, undefined);
  const feed = parseFeed(Buffer.from('<!DOCTYPE rss SYSTEM "http://e.example/rss.dtd"><rss><channel><item><title>&e;</title><link>http://a.example/1</link></item></channel></rss>'), 'application/rss+xml', 'http://a.example/feed');
  assert.deepEqual(feed.unexpandedDtd, { entities: 0, externalEntities: 0, externalDtd: 'http://e.example/rss.dtd', references: 1, names: ['e'] });
  assert.equal(feed.items[0]?.title, '&e;', 'left as written');
  assert.equal(parseFeed(Buffer.from('{"version":"https://jsonfeed.org/version/1.1","items":[]}'), 'application/feed+json', 'http://a.example/feed').unexpandedDtd, undefined);
});

test('stray ampersands and markup openers that are no comment nor CDATA section: each reference counted once', () => {
  assert.equal(unexpandedDtd(`<!DOCTYPE x [<!ENTITY a "1">]><x>${'&a;&'.repeat(50)}</x>`)!.references, 50);
  assert.equal(unexpandedDtd(`<!DOCTYPE x [<!ENTITY a "1">]><x>${'&a;<!x'.repeat(50)}<!-- &a; --><![CDATA[&a;]]>&a;</x>`)!.references, 51);
  assert.equal(unexpandedDtd(`<!DOCTYPE x [${'<!ENTITY a "1"> %p; '.repeat(50)}]><x/>`)!.entities, 50);
});
