import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildDemoSite } from './demo-site';
import { listen } from '../process/listen';

/** Serves the demo site on 127.0.0.1:`port` (0 = any free port). */
export async function startDemoServer(port: number, host = '127.0.0.1'): Promise<{ origin: string; server: Server; close(): Promise<void> }> {
  let site = buildDemoSite(`http://${host}:${port}`);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const resource = site.get(path);
    if (!resource) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
      return;
    }
    res.writeHead(resource.status ?? 200, { 'content-type': resource.contentType, 'last-modified': 'Mon, 02 Nov 2026 10:00:00 GMT' });
    res.end(resource.body);
  });
  await listen(server, 'the demo web site', host, port, 'TIDEMARK_DEMO_PORT');
  const actual = (server.address() as AddressInfo).port;
  const origin = `http://${host}:${actual}`;
  if (actual !== port) site = buildDemoSite(origin);
  return { origin, server, close: () => new Promise((r) => server.close(() => r())) };
}
