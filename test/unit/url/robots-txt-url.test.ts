import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isRobotsTxtUrl } from '../../../worker/url';

test("a robots.txt URL is its origin's /robots.txt, without a query", () => {
  assert.equal(isRobotsTxtUrl('http://a.example/robots.txt'), true);
  assert.equal(isRobotsTxtUrl('https://a.example:8443/robots.txt'), true);
  assert.equal(isRobotsTxtUrl('http://a.example/robots.txt?x=1'), false, 'a query makes it another resource');
  assert.equal(isRobotsTxtUrl('http://a.example/wiki/robots.txt'), false, 'a page named so elsewhere');
  assert.equal(isRobotsTxtUrl('not a url'), false);
});
