/**
 * Methods the cockpit does not serve, sent to the real server (server.ts): a 4xx, never a 500.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { startCockpit, type RunningCockpit } from '../../support/cockpit';

let cockpit: RunningCockpit;
before(async () => {
  cockpit = await startCockpit();
});
after(async () => {
  await cockpit?.stop();
});

/** Status of a request with `method` (fetch refuses to send TRACE). */
function statusOf(method: string, path: string): Promise<{ status: number; allow: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(`${cockpit.url}${path}`, { method, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('TRACE is a 405 on every path, API routes included (Next threw on it: a 500 with its stack logged)', { timeout: 180_000 }, async () => {
  for (const path of ['/api/crawls', '/api/crawls/1', '/api/auth/login', '/api/exports/1/files/x', '/', '/crawls']) {
    const answer = await statusOf('TRACE', path);
    assert.equal(answer.status, 405, path);
    assert.equal(answer.allow, 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS', path);
  }
  assert.equal((await statusOf('GET', '/api/crawls')).status, 401, 'other methods go on as before');
  assert.doesNotMatch(cockpit.output(), /HTTP method is unsupported/);
});
