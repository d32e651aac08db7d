import type { RequestListener } from 'node:http';

/** A loopback site whose robots.txt a test changes while a crawl runs (see robotsSite). */
export interface RobotsSite {
  listener: RequestListener;
  /** What /robots.txt answers: rules (200, text/plain), or a status with no body. */
  robots: string | number;
  /** Every path requested, in order. */
  requested: string[];
}

/**
 * Three pages, `/` linking to `/a` and `/b`, and a robots.txt that allows everything until the
 * test sets `robots`. `body(path)`: what `/a` and `/b` answer (default: the same each time).
 * `onRequest(path, nth)`: called as the nth request of a path (1 = first) arrives, before the
 * answer; returns how long the answer waits, in ms.
 */
export function robotsSite(o: { body?(path: string): string; onRequest?(path: string, nth: number): number | void } = {}): RobotsSite {
  const site: RobotsSite = {
    robots: 'User-agent: *\nDisallow:\n',
    requested: [],
    listener: (req, res) => {
      const path = req.url ?? '/';
      site.requested.push(path);
      const delayMs = o.onRequest?.(path, site.requested.filter((p) => p === path).length) ?? 0;
      const answer = () => {
        if (path === '/robots.txt') {
          const robots = site.robots;
          return void (typeof robots === 'number' ? res.writeHead(robots).end() : res.writeHead(200, { 'content-type': 'text/plain' }).end(robots));
        }
        if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/a">a</a> <a href="/b">b</a>');
        if (path === '/a' || path === '/b') return void res.writeHead(200, { 'content-type': 'text/html' }).end(o.body?.(path) ?? `<p>page ${path}</p>`);
        res.writeHead(404).end();
      };
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    },
  };
  return site;
}
