import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardedListener } from '../../../app/lib/server/guarded-listener';

/** Serves `handle` through guardedListener on 127.0.0.1 for the test; returns its origin and the lines it logged. */
async function serve(t: { after(fn: () => unknown): void }, handle: (req: IncomingMessage, res: ServerResponse) => unknown) {
  const logged: string[] = [];
  const server = createServer(guardedListener(handle, (line) => logged.push(line)));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise((r) => server.close(r)));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, logged };
}

test('a handler that throws, or whose promise rejects, is answered 500 instead of hanging', async (t) => {
  const { origin, logged } = await serve(t, (req) => {
    if (req.url === '/throws') throw new URIError('URI malformed');
    return Promise.reject(new TypeError('Invalid URL'));
  });
  for (const path of ['/throws', '/rejects']) {
    const res = await fetch(`${origin}${path}`, { signal: AbortSignal.timeout(5000) });
    assert.equal(res.status, 500, path);
    assert.deepEqual(await res.json(), { error: 'internal error' });
    assert.equal(res.headers.get('cache-control'), 'no-store');
  }
  assert.equal(logged.length, 2);
  assert.match(logged[0]!, /GET \/throws: URIError: URI malformed/);
  assert.match(logged[1]!, /GET \/rejects: TypeError: Invalid URL/);
});

test('a response already under way is cut, not completed, when its handler fails', async (t) => {
  const { origin } = await serve(t, async (_req, res) => {
    res.writeHead(200, { 'content-length': '100' });
    res.write('partial');
    await new Promise((r) => setTimeout(r, 20));
    throw new Error('disk gone');
  });
  const res = await fetch(origin, { signal: AbortSignal.timeout(5000) });
  assert.equal(res.status, 200);
  await assert.rejects(res.text(), 'the body ends before its length');
});

test('a handler that answers is left alone', async (t) => {
  const { origin, logged } = await serve(t, (_req, res) => res.end('ok'));
  assert.equal(await (await fetch(origin)).text(), 'ok');
  assert.deepEqual(logged, []);
});
