/**
 * A signed-in socket's subscriptions, on a real socket.io server on 127.0.0.1: what a hostile or
 * broken client sends is answered or ignored, never thrown in the server process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { io } from 'socket.io-client';
import { handleSubscriptions } from '../../../app/lib/server/socket-subscriptions';

test('a subscribe whose acknowledgement is no function (or that is sent without one) throws nothing; a proper one is answered', async (t) => {
  const thrown: unknown[] = [];
  const record = (err: unknown) => void thrown.push(err);
  process.on('uncaughtException', record);
  t.after(() => process.off('uncaughtException', record));
  const http = createServer();
  const server = new Server(http, { serveClient: false });
  server.on('connection', (socket) => handleSubscriptions(socket, () => ({ id: 1, username: 'viewer', role: 'curator', csrfToken: 'x' })));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  const client = io(`http://127.0.0.1:${(http.address() as AddressInfo).port}`, { transports: ['websocket'], reconnection: false });
  t.after(() => client.close());
  await new Promise<void>((resolve, reject) => (client.on('connect', resolve), client.on('connect_error', reject)));

  client.emit('subscribe', { crawlId: 1 }, 'not a function');
  client.emit('subscribe', null, 5);
  client.emit('subscribe', { crawlId: 'abc' }, { ack: true });
  client.emit('subscribe', { crawlId: 2 });
  client.emit('unsubscribe', null);
  client.emit('unsubscribe');
  const answer = await client.timeout(5000).emitWithAck('subscribe', { crawlId: 3 });
  assert.deepEqual(answer, { ok: true });
  assert.deepEqual(await client.timeout(5000).emitWithAck('subscribe', { crawlId: -1 }), { ok: false, error: 'invalid crawlId' });
  assert.deepEqual(thrown.map(String), []);
});
