/**
 * Loopback fixture sites for the AAH integration tests: one node:http server per site (hence
 * one host per application), serving fixture pages with `{{origin}}` replaced by the site's origin.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';

const FIXTURES = new URL('../../fixtures/aah/', import.meta.url);

/** A page of a site: a fixture file or a render function, and extra response headers. */
export interface Route {
  file?: string;
  render?: (origin: string) => string;
  headers?: Record<string, string>;
}

/** Starts one site on 127.0.0.1 (random port): path-and-query → route. */
export async function startSite(routes: Record<string, Route>): Promise<{ origin: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const route = routes[req.url ?? ''];
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const origin = `http://${req.headers.host}`;
    const html = route.render ? route.render(origin) : (await readFile(new URL(route.file!, FIXTURES), 'utf8')).replaceAll('{{origin}}', origin);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...route.headers }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
