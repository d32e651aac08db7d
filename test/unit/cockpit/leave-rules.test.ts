import { test } from 'node:test';
import assert from 'node:assert/strict';
import { leavesPageInApp } from '../../../app/lib/client/in-app-navigation';
import { LOGIN_REDIRECT_HOLD_MS, leavesForLogin, startsLoginRedirect } from '../../../app/lib/client/api';

const HERE = 'http://127.0.0.1:3000/icds/7';
const plain = { button: 0, altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, defaultPrevented: false };
const link = (href: string, more: { target?: string; download?: boolean } = {}) => ({ href, target: more.target ?? '', download: more.download ?? false });

test('a plain click on a link to another page of the cockpit leaves the page in this tab', () => {
  assert.equal(leavesPageInApp(plain, link('http://127.0.0.1:3000/crawls'), HERE), true);
  assert.equal(leavesPageInApp(plain, link('/icds'), HERE), true, 'a relative href');
  assert.equal(leavesPageInApp(plain, link('/icds/7?created=1'), HERE), true, 'other search parameters: another page');
  assert.equal(leavesPageInApp(plain, link('/knowledge-base', { target: '_self' }), HERE), true);
});

test('a click that opens elsewhere, downloads, or stays on this page is not an in-app navigation', () => {
  for (const key of ['altKey', 'ctrlKey', 'metaKey', 'shiftKey'] as const) {
    assert.equal(leavesPageInApp({ ...plain, [key]: true }, link('/crawls'), HERE), false, key);
  }
  assert.equal(leavesPageInApp({ ...plain, button: 1 }, link('/crawls'), HERE), false, 'middle click: a new tab');
  assert.equal(leavesPageInApp({ ...plain, defaultPrevented: true }, link('/crawls'), HERE), false, 'a handler took it');
  assert.equal(leavesPageInApp(plain, link('/login?again=1', { target: '_blank' }), HERE), false, 'a new tab');
  assert.equal(leavesPageInApp(plain, link('/api/exports/1/files/a.warc.gz', { download: true }), HERE), false);
  assert.equal(leavesPageInApp(plain, link('#seeds'), HERE), false, 'a fragment of this page');
  assert.equal(leavesPageInApp(plain, link('/icds/7#seeds'), HERE), false);
  assert.equal(leavesPageInApp(plain, link('http://example.org/'), HERE), false, 'another origin: beforeunload asks');
  assert.equal(leavesPageInApp(plain, link('http://127.0.0.1:3001/icds'), HERE), false, 'another port is another origin');
  assert.equal(leavesPageInApp(plain, link('mailto:archive@example.org'), HERE), false);
  assert.equal(leavesPageInApp(plain, link('http://[bad'), HERE), false, 'an unparsable href');
});

test('a lost session sends the tab to the login page only on a read, asked for, over no unsaved edits', () => {
  assert.equal(leavesForLogin('GET', false, false), true);
  assert.equal(leavesForLogin('GET', false, true), false, 'unsaved edits stay');
  assert.equal(leavesForLogin('GET', true, false), false, 'noRedirect');
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) assert.equal(leavesForLogin(method, false, false), false, method);
});

test('reads refused together send the tab to the login page once: a second navigation would abort the first; a later one goes again', () => {
  assert.equal(startsLoginRedirect(null, 1_000), true, 'the first');
  assert.equal(startsLoginRedirect(1_000, 1_000), false, 'at the same moment');
  assert.equal(startsLoginRedirect(1_000, 1_000 + LOGIN_REDIRECT_HOLD_MS - 1), false);
  assert.equal(startsLoginRedirect(1_000, 1_000 + LOGIN_REDIRECT_HOLD_MS), true, 'the tab stayed: a later refused read sends it again');
});
