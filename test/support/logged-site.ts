import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import assert from 'node:assert/strict';

/** One request as the site saw it: path, when it arrived, when its answer was sent. */
export interface LoggedRequest {
  path: string;
  at: number;
  end?: number;
}

/**
 * A loopback site on `ip` (a 127.0.0.x of the test's own, so the worker's politeness key is the
 * test's) that logs each request and answers it after `latencyMs` with `answer(path)`; `onRequest`
 * runs as a request arrives, before the answer.
 */
export async function startLoggedSite(o: {
  ip: string;
  latencyMs: number;
  answer(path: string): { status: number; type?: string; body?: string };
  onRequest?(path: string): void;
}): Promise<{ origin: string; log: LoggedRequest[]; close(): void }> {
  const log: LoggedRequest[] = [];
  const server = createServer((req, res: ServerResponse) => {
    const entry: LoggedRequest = { path: new URL(req.url ?? '/', 'http://x').pathname, at: Date.now() };
    log.push(entry);
    o.onRequest?.(entry.path);
    setTimeout(() => {
      const { status, type = 'text/html', body = '' } = o.answer(entry.path);
      entry.end = Date.now();
      res.writeHead(status, { 'content-type': type }).end(body);
    }, o.latencyMs);
  });
  await new Promise<void>((r) => server.listen(0, o.ip, () => r()));
  return {
    origin: `http://${o.ip}:${(server.address() as AddressInfo).port}`,
    log,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** The log in arrival order. */
export function inArrivalOrder(log: readonly LoggedRequest[]): LoggedRequest[] {
  return [...log].sort((x, y) => x.at - y.at);
}

/** One request at a time, each at least `delayMs` (less 5 ms of timer slack) after the last one ended. */
export function assertPolite(log: readonly LoggedRequest[], delayMs: number): void {
  const sorted = inArrivalOrder(log);
  for (let i = 1; i < sorted.length; i++) {
    const [prev, cur] = [sorted[i - 1]!, sorted[i]!];
    assert.ok(prev.end !== undefined && prev.end <= cur.at, `${prev.path} and ${cur.path} in flight at once`);
    assert.ok(cur.at - prev.end >= delayMs - 5, `${prev.path} → ${cur.path}: ${cur.at - prev.end} ms`);
  }
}
