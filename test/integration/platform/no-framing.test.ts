/**
 * Clickjacking: every response of the real server (pages, API, static files, the downloads
 * server.ts answers itself, errors) tells browsers that no page may frame it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request, type IncomingHttpHeaders } from 'node:http';
import { signedInAdmin, startCockpit, type RunningCockpit } from '../../support/cockpit';
import type { ApiClient } from '../../support/api-client';

let cockpit: RunningCockpit;
let api: ApiClient;
before(async () => {
  cockpit = await startCockpit();
  api = await signedInAdmin(cockpit);
});
after(() => cockpit?.stop());

function assertNotFramable(res: Response, what: string): void {
  assert.equal(res.headers.get('x-frame-options'), 'DENY', what);
  assert.equal(res.headers.get('content-security-policy'), "frame-ancestors 'none'", what);
}

/** The headers of a TRACE answer (fetch refuses to send TRACE). */
const traceHeaders = (url: string) =>
  new Promise<IncomingHttpHeaders>((resolve, reject) => {
    const req = request(url, { method: 'TRACE' }, (res) => (res.resume(), resolve(res.headers)));
    req.on('error', reject);
    req.end();
  });

test('pages, API routes, static assets, downloads and errors all refuse to be framed', async () => {
  const users = await api.request('GET', '/users', undefined, { accept: 'text/html' });
  assert.equal(users.status, 200);
  const html = await users.text();
  assertNotFramable(users, 'the signed-in Users page');

  const login = await fetch(`${cockpit.url}/login`, { redirect: 'manual' });
  assertNotFramable(login, 'the login page');

  const script = html.match(/\/_next\/static\/[^"']+\.js/)?.[0];
  assert.ok(script, 'the Users page loads a script of the build');
  const asset = await fetch(`${cockpit.url}${script}`);
  assert.equal(asset.status, 200);
  assertNotFramable(asset, `the static asset ${script}`);

  const me = await api.request('GET', '/api/auth/me');
  assert.equal(me.status, 200);
  assertNotFramable(me, 'an API route');
  assertNotFramable(await fetch(`${cockpit.url}/api/crawls`), 'an API route refusing an anonymous client');

  // Answered by server.ts itself, not by Next.
  assertNotFramable(await api.request('GET', '/api/exports/999/files/a.warc.gz'), 'an export download');
  const trace = await traceHeaders(`${cockpit.url}/api/crawls`);
  assert.equal(trace['x-frame-options'], 'DENY', 'TRACE');
  assert.equal(trace['content-security-policy'], "frame-ancestors 'none'", 'TRACE');
  assertNotFramable(await fetch(`${cockpit.url}/no-such-page`), 'a 404 page');
});

test('socket.io answers (its handshake, and its refusal of an unknown session) refuse to be framed too', async () => {
  // socket.io answers /socket.io/ itself, before the listener that sets the headers on the rest.
  const handshake = await api.request('GET', '/socket.io/?EIO=4&transport=polling');
  assert.equal(handshake.status, 200);
  assertNotFramable(handshake, 'the socket.io handshake');
  const unknown = await fetch(`${cockpit.url}/socket.io/?EIO=4&transport=polling&sid=nosuchsession`);
  assert.equal(unknown.status, 400);
  assertNotFramable(unknown, 'socket.io refusing an unknown session');
});
