import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback site whose answer to some requests waits for the test (startHoldingSite). */
export interface HoldingSite {
  origin: string;
  /** Every path requested, in order. */
  requested: string[];
  /** Resolves when the first held request arrives. */
  held: Promise<void>;
  /** Answers the held requests, and any later one at once. */
  release(): void;
  close(): void;
}

/**
 * A site of small pages: `/` links to /a and /b, /robots.txt is a 404, any other path a page. A
 * request for which `holds(path, requestedBefore)` is true is answered only once the test calls
 * release(), so the test acts while the crawl is at a known point (a page in flight, a revisit begun).
 */
export async function startHoldingSite(holds: (path: string, requestedBefore: readonly string[]) => boolean): Promise<HoldingSite> {
  const requested: string[] = [];
  let arrived!: () => void;
  const held = new Promise<void>((r) => (arrived = r));
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    const holding = holds(path, requested);
    requested.push(path);
    const answer = () => {
      if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/a">a</a> <a href="/b">b</a>');
      if (path === '/robots.txt') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>notice ${path}</p>`);
    };
    if (!holding) return answer();
    arrived();
    void released.then(answer);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requested,
    held,
    release,
    close: () => {
      release();
      server.closeAllConnections();
      server.close();
    },
  };
}
