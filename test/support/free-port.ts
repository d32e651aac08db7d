import { createServer } from 'node:net';

/**
 * A loopback port nothing listens on: bound to 127.0.0.1, then closed. For a server to start on
 * (cockpit.ts), or for a URL whose connections are refused.
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
