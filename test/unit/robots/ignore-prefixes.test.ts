import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RobotsCache, robotsIgnorePrefixes } from '../../../worker/robots';

test('robots.txt exceptions as archivists write them: without a scheme, with capitals in the host', () => {
  assert.deepEqual(robotsIgnorePrefixes(['example.org', 'https://News.Example.org/Blog', '  ', 'http://a.example.org/x?q=1']), [
    'http://example.org/', 'https://example.org/',
    'https://news.example.org/Blog',
    'http://a.example.org/x?q=1',
  ]);
  assert.deepEqual(robotsIgnorePrefixes(['example.org/private/']), ['http://example.org/private/', 'https://example.org/private/']);
  assert.deepEqual(robotsIgnorePrefixes(['not a url']), ['not a url'], 'kept as written when it is no URL (it matches nothing, as before)');
});

// Found by an exploratory session (international names): the path was kept as written and the host
// as URL.host has it, so a path in another script, or a host with the root's trailing dot, matched
// no canonical URL, and robots.txt was obeyed there without a word.
test('robots.txt exceptions in other scripts or with a trailing dot are compared as canonical URLs write them', () => {
  assert.deepEqual(robotsIgnorePrefixes(['https://bücher.example/日本語/', 'example.org./archiv/ä', 'https://example.net/search?']), [
    'https://xn--bcher-kva.example/%E6%97%A5%E6%9C%AC%E8%AA%9E/',
    'http://example.org/archiv/%C3%A4', 'https://example.org/archiv/%C3%A4',
    'https://example.net/search?',
  ]);
});

test('a crawl told to ignore robots.txt for "example.org" does not ask it for https://example.org/ pages', async () => {
  const asked: string[] = [];
  const robots = new RobotsCache({
    userAgent: 'Tidemark/0.1',
    enabled: true,
    ignoreFor: ['example.org', 'https://Media.Example.org'],
    fetchRobots: async (url) => {
      asked.push(url);
      throw new Error('robots.txt asked');
    },
  });
  assert.equal((await robots.check('https://example.org/private/page')).reason, 'robots-ignored');
  assert.equal((await robots.check('http://example.org/')).reason, 'robots-ignored');
  assert.equal((await robots.check('https://media.example.org/img/1.png')).reason, 'robots-ignored');
  assert.deepEqual(asked, []);
});
