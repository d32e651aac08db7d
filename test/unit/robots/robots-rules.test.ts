import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRobotsRules, robotsProductToken } from '../../../worker/robots';

test('product token from the usual user-agent shapes', () => {
  assert.equal(robotsProductToken('Tidemark/0.1 (+https://github.com/tidemark/tidemark; web archiving crawler)'), 'tidemark');
  assert.equal(robotsProductToken('Mozilla/5.0 (compatible; Tidemark/0.1; +https://example.org/bot)'), 'tidemark');
  assert.equal(robotsProductToken('archive-bot'), 'archive-bot');
});

const text = `User-agent: *
Disallow: /

User-agent: tidemark
Disallow: /tmp/
Allow: /tmp/keep
Crawl-delay: 0.5

User-agent: otherbot
Crawl-delay: 30

Sitemap: https://example.org/a.xml
Sitemap: https://example.org/b.xml
`;

test('our group, not *, applies; longest match wins; crawl-delay in ms; sitemaps', () => {
  const rules = parseRobotsRules('https://example.org/robots.txt', text, 'Tidemark/0.1 (+https://x)');
  assert.equal(rules.isAllowed('https://example.org/'), true);
  assert.equal(rules.isAllowed('https://example.org/tmp/x'), false);
  assert.equal(rules.isAllowed('https://example.org/tmp/keep/y'), true);
  assert.equal(rules.crawlDelayMs, 500);
  assert.deepEqual(rules.sitemaps, ['https://example.org/a.xml', 'https://example.org/b.xml']);
});

test('another crawler falls back to the * group', () => {
  const rules = parseRobotsRules('https://example.org/robots.txt', text, 'SomeoneElse/2.0');
  assert.equal(rules.isAllowed('https://example.org/page'), false);
  assert.equal(rules.crawlDelayMs, null);
});

test('empty or garbage robots.txt allows everything', () => {
  const rules = parseRobotsRules('http://a.test/robots.txt', '<html>not robots</html>', 'Tidemark/0.1');
  assert.equal(rules.isAllowed('http://a.test/anything'), true);
  assert.equal(rules.crawlDelayMs, null);
  assert.deepEqual(rules.sitemaps, []);
});

test('a relative Sitemap line is resolved against robots.txt, as the site means it', () => {
  const rules = parseRobotsRules('http://a.test/robots.txt', 'User-agent: *\nDisallow:\n\nSitemap: /sitemap.xml\nSitemap: maps/news.xml\nSitemap: http://b.test/other.xml\n', 'Tidemark/0.1');
  assert.deepEqual(rules.sitemaps, ['http://a.test/sitemap.xml', 'http://a.test/maps/news.xml', 'http://b.test/other.xml']);
});

// RFC 9309 §2.2.2: `/%7Ejoe/` and `/~joe/` name one path. Before, a rule written with the escape
// never matched the canonical URL (which has it unescaped), and the page was fetched.
test('an escaped unreserved character matches its plain form, in a rule or in the URL', () => {
  const rules = parseRobotsRules('https://example.org/robots.txt', 'User-agent: *\nDisallow: /%7Ejoe/\nDisallow: /~ann/\nDisallow: /%62%61%7A\nDisallow: /caf%C3%A9\nDisallow: /a%2Fb\n', 'Tidemark/0.1');
  assert.equal(rules.isAllowed('https://example.org/~joe/secret.html'), false);
  assert.equal(rules.isAllowed('https://example.org/%7ejoe/secret.html'), false);
  assert.equal(rules.isAllowed('https://example.org/%7Eann/x'), false);
  assert.equal(rules.isAllowed('https://example.org/baz'), false);
  // Escapes of other characters stay escapes (their hex in either case): `%2F` is not a `/`.
  assert.equal(rules.isAllowed('https://example.org/caf%c3%a9'), false);
  assert.equal(rules.isAllowed('https://example.org/a%2fb'), false);
  assert.equal(rules.isAllowed('https://example.org/a/b'), true);
  assert.equal(rules.isAllowed('https://example.org/~joey'), true);
  assert.equal(rules.isAllowed('https://example.org/bar'), true);
});
