import { test } from 'node:test';
import assert from 'node:assert/strict';
import { killSite } from '../../../bench/kill-anywhere/site';

test('the site lists each path once, with requisites, copies and large files, and refuses too few pages', () => {
  const { paths } = killSite(130, 1);
  assert.equal(new Set(paths).size, paths.length);
  for (const p of ['/', '/p/129.html', '/img/pic-7.png', '/img/copy-23.png', '/static/site.css', '/favicon.ico', '/files/report-60.bin', '/files/report-120.bin', '/files/report-copy.bin']) {
    assert.ok(paths.includes(p), p);
  }
  assert.throws(() => killSite(10, 1), /at least 24 pages/);
});
