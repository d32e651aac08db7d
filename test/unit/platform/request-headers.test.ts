import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readCookie } from '../../../worker/auth/sessions';
import { sameOrigin } from '../../../worker/auth/origin';

test('readCookie finds one cookie among others and percent-decodes it', () => {
  assert.equal(readCookie('a=1; tidemark_session=abc%2Bdef; b=2', 'tidemark_session'), 'abc+def');
  assert.equal(readCookie('tidemark_session= spaced ', 'tidemark_session'), 'spaced');
  assert.equal(readCookie('other=1', 'tidemark_session'), undefined);
  assert.equal(readCookie(undefined, 'tidemark_session'), undefined);
  assert.equal(readCookie('', 'tidemark_session'), undefined);
});

test('a cookie value that does not percent-decode is no cookie, not an exception', () => {
  for (const value of ['%', '%E0%A4%A', '%zz', 'abc%']) {
    assert.equal(readCookie(`tidemark_session=${value}`, 'tidemark_session'), undefined, value);
  }
  // Another cookie of the same name (a different Path) is still read.
  assert.equal(readCookie('tidemark_session=%; tidemark_session=good', 'tidemark_session'), 'good');
});

test('sameOrigin: the Origin names the Host; null, garbage or no Host is refused', () => {
  assert.equal(sameOrigin('http://127.0.0.1:3000', '127.0.0.1:3000'), true);
  assert.equal(sameOrigin('https://cockpit.example', 'cockpit.example'), true);
  assert.equal(sameOrigin('http://evil.example', 'cockpit.example'), false);
  assert.equal(sameOrigin('http://cockpit.example:8080', 'cockpit.example'), false);
  for (const origin of ['garbage', 'null', '', 'http://', 'file:///etc/passwd', '%']) assert.equal(sameOrigin(origin, 'cockpit.example'), false, origin);
  assert.equal(sameOrigin('http://cockpit.example', undefined), false);
  assert.equal(sameOrigin('http://cockpit.example', ''), false);
});
