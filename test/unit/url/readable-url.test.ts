import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readableUrl } from '../../../worker/url/readable-url';

// What the URL filters match a text outside ASCII against (stored URLs percent-encode it).
test('a stored URL as read: UTF-8 escapes decoded, other escapes as written, punycode hosts in their script, composed', () => {
  assert.equal(readableUrl('http://a.example/caf%C3%A9?q=%C3%A9t%C3%A9'), 'http://a.example/café?q=été');
  assert.equal(readableUrl('http://a.example/bad%FF%C3%A9%C3'), 'http://a.example/bad%FFé%C3');
  assert.equal(readableUrl('http://xn--bcher-kva.example:8080/x'), 'http://bücher.example:8080/x');
  assert.equal(readableUrl('http://a.example/cafe%CC%81'), 'http://a.example/café'.normalize('NFC'));
  assert.equal(readableUrl('http://a.example/plain'), 'http://a.example/plain');
});
