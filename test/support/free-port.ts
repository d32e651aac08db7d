import { createServer, type Server } from 'node:net';

/**
 * A loopback port nothing listens on: bound to 127.0.0.1, then closed. For a server to start on
 * (cockpit.ts), or for a URL whose connections are refused.
 */
export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]!;
}

/**
 * `n` different loopback ports nothing listens on. Each is held until all are bound: two calls of
 * freePort in a row may both get the port the first just closed (the cockpit and its demo site
 * were once given one port, and the cockpit's start failed on it).
 */
export async function freePorts(n: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
    }
    return servers.map((s) => (s.address() as { port: number }).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => (s.listening ? s.close(() => resolve()) : resolve()))));
  }
}
