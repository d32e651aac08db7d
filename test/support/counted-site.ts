import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/**
 * A loopback site whose routes know how many times their path was requested (1: the first
 * request), for sites that answer a page's visit, revisit or recrawl differently. `requests` counts
 * by path.
 */
export function countedSite(route: (path: string, nth: number, req: IncomingMessage, res: ServerResponse) => void): { listener: RequestListener; requests: Map<string, number> } {
  const requests = new Map<string, number>();
  const listener: RequestListener = (req, res) => {
    const path = req.url ?? '/';
    const nth = (requests.get(path) ?? 0) + 1;
    requests.set(path, nth);
    route(path, nth, req, res);
  };
  return { listener, requests };
}
