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
import { dropEndedSessions, handleSubscriptions } from '../../../app/lib/server/socket-subscriptions';
import { SESSION_ENDED_EVENT } from '../../../worker/events/messages';

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

test('a connected socket whose session has ended is told so and disconnected; one whose session goes on stays; a subscribe then says the session ended', async (t) => {
  const http = createServer();
  const server = new Server(http, { serveClient: false });
  // Each client names its session in the handshake's query; `ended` holds the sessions that have ended.
  const ended = new Set<string>();
  const sessionOf = (socket: { handshake: { query: Record<string, unknown> } }) => (ended.has(String(socket.handshake.query.session)) ? null : { id: 1, username: 'viewer', role: 'curator', csrfToken: 'x' });
  server.on('connection', (socket) => handleSubscriptions(socket, () => sessionOf(socket)));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  const connect = async (session: string) => {
    const client = io(`http://127.0.0.1:${(http.address() as AddressInfo).port}`, { transports: ['websocket'], query: { session } });
    t.after(() => client.close());
    await new Promise<void>((resolve, reject) => (client.on('connect', resolve), client.on('connect_error', reject)));
    return client;
  };
  const signedOut = await connect('a');
  const stays = await connect('b');
  assert.deepEqual(await signedOut.timeout(5000).emitWithAck('subscribe', { crawlId: 1 }), { ok: true });

  ended.add('a');
  assert.deepEqual(await signedOut.timeout(5000).emitWithAck('subscribe', { crawlId: 2 }), { ok: false, error: 'unauthenticated' });
  const told = new Promise<void>((resolve) => signedOut.once(SESSION_ENDED_EVENT, () => resolve()));
  const gone = new Promise<string>((resolve) => signedOut.once('disconnect', (reason) => resolve(reason)));
  assert.equal(dropEndedSessions(server, sessionOf), 1);
  await told;
  assert.equal(await gone, 'io server disconnect', 'the server ended it: socket.io does not reconnect');
  assert.equal(signedOut.active, false);
  assert.equal(stays.connected, true);
  assert.deepEqual(await stays.timeout(5000).emitWithAck('subscribe', { crawlId: 1 }), { ok: true });
  assert.equal(dropEndedSessions(server, sessionOf), 0);
  // A look-up that throws (the database busy) drops nothing and throws nothing: the server's timer calls this.
  assert.equal(dropEndedSessions(server, () => { throw new Error('SQLITE_BUSY'); }), 0);
  assert.equal(stays.connected, true);
});
