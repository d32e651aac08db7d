import { after } from 'node:test';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Serves `handler` on 127.0.0.1 at a free port until the test file's end; returns its origin. */
export async function serveLoopback(handler: RequestListener): Promise<string> {
  const site = createServer(handler);
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  after(() => new Promise<void>((r) => { site.closeAllConnections(); site.close(() => r()); }));
  return `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
}
