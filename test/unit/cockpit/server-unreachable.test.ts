/**
 * A request that gets no answer (the connection lost, the server down) says so. Before, Save or
 * Add note over a lost connection showed fetch's own words, "Failed to fetch": nothing said that
 * the edits were not saved, nor what to do.
 */
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { api, apiLines } from '../../../app/lib/client/api';

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** fetch as a browser's fails when no answer comes. */
const noAnswer = () => {
  globalThis.fetch = (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch;
};

test('a save that gets no answer says the server could not be reached, nothing was saved, and to try again', async () => {
  noAnswer();
  for (const method of ['POST', 'PUT', 'PATCH']) {
    await assert.rejects(api(method, '/api/icds/2', { name: 'x' }), {
      name: 'ServerUnreachableError',
      message: 'The server could not be reached (the connection was lost, or the server is down), so nothing was saved. Check the connection and try again.',
    });
  }
});

test('a delete says nothing was deleted; a read only that the server could not be reached', async () => {
  noAnswer();
  await assert.rejects(api('DELETE', '/api/crawls/3'), { message: /could not be reached .*, so nothing was deleted\. Check the connection and try again\.$/ });
  await assert.rejects(api('GET', '/api/crawls/3'), { message: 'The server could not be reached (the connection was lost, or the server is down). Check the connection and try again.' });
});

test('a request its caller aborted is an abort, not a lost connection', async () => {
  const controller = new AbortController();
  globalThis.fetch = (() => {
    controller.abort();
    return Promise.reject(Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' }));
  }) as typeof fetch;
  await assert.rejects(apiLines('GET', '/api/crawls/3/log', () => undefined, controller.signal), { name: 'AbortError' });
});
