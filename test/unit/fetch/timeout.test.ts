import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startDeadline, TimeoutError, withTimeout } from '../../../worker/fetch';

test('withTimeout passes results and errors through', async () => {
  assert.equal(await withTimeout(1000, 'total', async () => 42), 42);
  await assert.rejects(withTimeout(1000, 'total', async () => Promise.reject(new Error('own'))), /own/);
});

test('withTimeout rejects with a typed TimeoutError and aborts the work', async () => {
  let aborted: unknown = null;
  const err = await withTimeout(10, 'headers', (signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject((aborted = signal.reason))))).catch((e: unknown) => e);
  assert.ok(err instanceof TimeoutError);
  assert.equal(err.kind, 'headers');
  assert.equal(err.ms, 10);
  assert.ok(aborted instanceof TimeoutError);
});

test('a cleared deadline never fires', async () => {
  let fired = false;
  const d = startDeadline(5, 'connect', () => (fired = true));
  d.clear();
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(fired, false);
  assert.equal(d.expired, false);
  assert.equal(d.signal.aborted, false);
});
