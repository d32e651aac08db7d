import type { IncomingMessage, ServerResponse } from 'node:http';

type Listener = (req: IncomingMessage, res: ServerResponse) => unknown;

/**
 * A node:http request listener that answers 500 when `handle` throws or the promise it returns
 * rejects. Unguarded, the error escapes as an uncaught exception (or unhandled rejection) and the
 * request stays open until the client gives up. A response already under way is cut instead, so
 * the client sees it broken rather than complete.
 */
export function guardedListener(handle: Listener, log: (line: string) => void = console.error): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const fail = (err: unknown) => {
      log(`tidemark: ${req.method} ${req.url}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      if (res.headersSent) return void res.destroy();
      res.writeHead(500, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ error: 'internal error' }));
    };
    try {
      const result = handle(req, res);
      if (result instanceof Promise) result.catch(fail);
    } catch (err) {
      fail(err);
    }
  };
}
