import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback host of two stable pages (`/` links to `/a`; robots.txt allows all until the test sets
 * `robots`) that a test can take down — `close()`, after which connections are refused — and bring
 * back on the same port (`listen()`), for recrawl rounds' host back-off.
 */
export async function hostGoingDown(): Promise<{ origin: string; robots: string; listening(): boolean; close(): Promise<void>; listen(): Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(host.robots);
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/a">a</a>');
    if (req.url === '/a') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>a stable page</p>');
    res.writeHead(404).end();
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const { port } = server.address() as AddressInfo;
  const host = {
    origin: `http://127.0.0.1:${port}`,
    robots: 'User-agent: *\nDisallow:\n',
    listening: () => server.listening,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
    listen: () => listen(port),
  };
  return host;
}
