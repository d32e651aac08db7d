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
