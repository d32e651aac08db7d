import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FixtureSite {
  origin: string;
  /** Every page URL of the site (what a complete crawl must capture). */
  pages: string[];
  /** Requests received, in order, with their time. */
  requests: { path: string; host: string; at: number; end?: number; ua: string }[];
  /** Sends the bodies `holdFrom` held back, and every later one at once. */
  release(): void;
  close(): Promise<void>;
}

/**
 * A generated site of `pageCount` HTML pages linked as a chain plus a few cross links, each
 * response delayed by `delayMs` so a crawl takes long enough to be interrupted. With `holdFrom`,
 * pages numbered from there on send their head at once and their body only after `release()`: a
 * crawl is still running when a test looks, however slow the machine (no fetch timeout runs out on
 * a head already sent before the body's total timeout).
 */
export async function startFixtureSite(opts: { pageCount: number; delayMs?: number; robots?: string; holdFrom?: number }): Promise<FixtureSite> {
  const requests: FixtureSite['requests'] = [];
  let released = opts.holdFrom === undefined;
  const held: (() => void)[] = [];
  const page = (i: number) => `/page/${i}.html`;
  const server = createServer((req: IncomingMessage, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const entry: FixtureSite['requests'][number] = { path, host: String(req.headers.host ?? ''), at: Date.now(), ua: String(req.headers['user-agent'] ?? '') };
    requests.push(entry);
    // The end is when the response is handed over, not when 'finish' fires: under load that event
    // comes late, which would make the gap to the next request look shorter than it was.
    const endResponse = res.end.bind(res) as (...args: unknown[]) => typeof res;
    res.end = ((...args: unknown[]) => {
      entry.end = Date.now();
      return endResponse(...args);
    }) as typeof res.end;
    setTimeout(() => {
      if (path === '/robots.txt') {
        if (!opts.robots) {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'text/plain' }).end(opts.robots);
        return;
      }
      // Linked from nowhere: a seed that always fails (the connection is reset, no response).
      if (path === '/reset.html') {
        req.socket.destroy();
        return;
      }
      const m = /^\/page\/(\d+)\.html$/.exec(path);
      const i = path === '/' ? 0 : m ? Number(m[1]) : -1;
      if (i < 0 || i >= opts.pageCount) {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
        return;
      }
      const links = [i + 1, i + 2, (i * 7) % opts.pageCount].filter((j) => j < opts.pageCount).map((j) => `<a href="${page(j)}">Page ${j}</a>`);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      const body = () => res.end(`<!doctype html><title>Page ${i}</title><h1>Page ${i}</h1><p>Some text about tides and harbours on page ${i}. ${links.join(' ')}</p>`);
      if (released || i < opts.holdFrom!) body();
      else {
        res.flushHeaders();
        held.push(body);
      }
    }, opts.delayMs ?? 0);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    pages: [`${origin}/`, ...Array.from({ length: opts.pageCount - 1 }, (_, k) => `${origin}${page(k + 1)}`)],
    requests,
    release: () => {
      released = true;
      for (const body of held.splice(0)) body();
    },
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
