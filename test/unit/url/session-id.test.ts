import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withoutSessionIds } from '../../../worker/url';
import { mayHoldSessionId } from '../../../worker/url/session-id';

test('session ids are taken out of the path and the query, the rest kept in order', () => {
  const cases: [string, string][] = [
    ['http://a.test/cart;jsessionid=0A1B2C3D4E5F60718293A4B5C6D7E8F9?item=3', 'http://a.test/cart?item=3'],
    ['http://a.test/x;jsessionid=node01abcdefghijkl.node0', 'http://a.test/x'],
    ['http://a.test/p.php?page=2&PHPSESSID=9f8e7d6c5b4a39281706f5e4d3c2b1a0&sort=new', 'http://a.test/p.php?page=2&sort=new'],
    ['http://a.test/p.php?sid=9f8e7d6c5b4a39281706f5e4d3c2b1a0', 'http://a.test/p.php'],
    ['http://a.test/default.asp?ASPSESSIONIDQQGGGNCU=ABCDEFGHIJKLMNOPQRSTUVWX&id=1', 'http://a.test/default.asp?id=1'],
    ['http://a.test/i.cfm?CFID=123456&CFTOKEN=12345678&x=1', 'http://a.test/i.cfm?x=1'],
    ['http://a.test/showthread.php?s=0123456789abcdef0123456789abcdef&t=7#post9', 'http://a.test/showthread.php?t=7#post9'],
  ];
  for (const [url, stripped] of cases) assert.equal(withoutSessionIds(url), stripped, url);
});

test('parameters that only share a name with a session id are kept', () => {
  for (const url of [
    'http://a.test/search?s=harbour+tides', // a search, not vBulletin's 32 hex digits
    'http://a.test/news?sid=42', // a section id
    'http://a.test/plain/page',
    'http://a.test/p?',
    'http://a.test/p?=x&&y',
    'http://a.test/a;b=c?session=x',
  ]) assert.equal(withoutSessionIds(url), url);
});

test('the quick check passes a URL with a session id on to the full parse, and a URL without one comes back as it is', () => {
  const withSessions = [
    'http://a.test/x;jsessionid=0A1B2C3D4E5F60718293A4B5C6D7E8F9',
    'http://a.test/X;JSESSIONID=0A1B2C3D4E5F60718293A4B5C6D7E8F9',
    'http://a.test/p.php?PHPSESSID=9f8e7d6c5b4a39281706f5e4d3c2b1a0',
    'http://a.test/p?jsessionid=9f8e7d6c5b4a39281706f5e4d3c2b1a0',
    'http://a.test/p?sessionid=9f8e7d6c5b4a3928&a=1',
    'http://a.test/p?session_id=9f8e7d6c5b4a3928',
    'http://a.test/p?a=1&sid=9f8e7d6c5b4a39281706f5e4d3c2b1a0',
    'http://a.test/p?zenid=9f8e7d6c5b4a39281706f5e4d3c2b1a0',
    'http://a.test/p?osCsid=9f8e7d6c5b4a39281706f5e4d3c2b1a0',
    'http://a.test/p?ASPSESSIONIDQQGGGNCU=ABCDEFGHIJKLMNOPQRSTUVWX',
    'http://a.test/p?CFID=123456',
    'http://a.test/p?x=1&CFTOKEN=12345678',
    'http://a.test/p?s=0123456789abcdef0123456789abcdef',
    'http://a.test/p?t=7&s=0123456789abcdef0123456789abcdef',
  ];
  for (const url of withSessions) {
    assert.ok(mayHoldSessionId(url), url);
    assert.notEqual(withoutSessionIds(url), url, url);
  }
  for (const url of ['http://a.test/plain/page', 'http://a.test/p?page=2&sort=new', 'http://a.test/a;b=c', 'http://a.test/p?ids=1&xs=2', 'http://a.test/sessions/sid']) {
    assert.equal(mayHoldSessionId(url), false, url);
    assert.equal(withoutSessionIds(url), url);
  }
});
