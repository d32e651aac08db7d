import { test } from 'node:test';
import assert from 'node:assert/strict';
import { safeNext } from '../../../app/lib/client/safe-next';

const origin = 'http://127.0.0.1:3000';

test("after signing in, ?next= leads only to a page of the cockpit: not to another site the browser reads it as", () => {
  assert.equal(safeNext('/crawls/7?tab=log#top', origin), '/crawls/7?tab=log#top');
  assert.equal(safeNext('/icds', origin), '/icds');
  // A backslash is a slash to the browser, and tabs and newlines are dropped: each of these started
  // with one slash and sent the user to evil.example.
  for (const next of ['/\\evil.example/phish', '/\t/evil.example/', '/\n/evil.example', '\\/evil.example', '//evil.example/x', '/\\/evil.example']) {
    assert.equal(safeNext(next, origin), '/crawls', JSON.stringify(next));
  }
  for (const next of [null, '', 'crawls', 'https://evil.example/', 'javascript:alert(1)']) assert.equal(safeNext(next, origin), '/crawls', String(next));
  // What is followed is the path as the browser reads it, on this origin.
  assert.equal(safeNext('/a/../crawls', origin), '/crawls');
});
