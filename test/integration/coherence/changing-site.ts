import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How a page of the fixture changes when the timer fires. */
export type ChangeKind = 'none' | 'content' | 'links' | 'removed';

export interface ServedResponse {
  path: string;
  status: number;
  /** Version of the page served (0 before its change, 1 after); timestamps are not versions. */
  version: number;
  conditional: boolean;
  at: number;
}

export interface ChangingSite {
  origin: string;
  /** Every page of the visit pass, by path, with how it will change. */
  pages: Record<string, ChangeKind>;
  served: ServedResponse[];
  /** When the timer changed the pages (null until it fired). */
  changedAt: number | null;
  close(): Promise<void>;
}

const PARAGRAPHS = [
  'The harbour master reported that the spring tide reached four metres on the north quay, flooding the fish market while the ferries waited offshore.',
  'Volunteers from the lifeboat station cleared the slipway of seaweed and driftwood before the evening launch of the training crew.',
  'The council published tide tables for the coming month and warned walkers about the causeway to the island at high water.',
  'Fishermen landed a record catch of mackerel this week, selling most of it at the morning auction before the rain arrived.',
];
const REWRITE = 'A new sea wall will be built along the promenade after the council approved the engineers plan following a long public consultation about cost, tourism and the future of the old pier.';

/**
 * A loopback site whose pages change on a timer during a visit–revisit crawl. The timer starts
 * when every page has been served once (the visit pass is over) and fires after `delayMs`; then
 * /news gets a new text, /menu a new link, /gone answers 404. /clock prints the time on every
 * response (a change of payload that is no change of content); /etag answers If-None-Match with
 * 304; /dated has a trustworthy Last-Modified. Every response is logged with the page version.
 */
export async function startChangingSite(opts: { delayMs?: number } = {}): Promise<ChangingSite> {
  // Linked from the home page in this order: the changing pages are visited first, so the
  // pyramid revisits them last, well after the timer fired.
  const pages: Record<string, ChangeKind> = {
    '/': 'none', '/news': 'content', '/menu': 'links', '/gone': 'removed',
    '/about': 'none', '/etag': 'none', '/dated': 'none', '/clock': 'none',
  };
  const served: ServedResponse[] = [];
  const seen = new Set<string>();
  let changedAt: number | null = null;
  let timer: NodeJS.Timeout | null = null;
  const nav = '<nav><a href="/">Home</a> <a href="/about">About</a></nav>';
  const page = (title: string, body: string, extraLinks = '') =>
    `<!doctype html><html><head><title>${title}</title></head><body>${nav}<main><h1>${title}</h1>${body}${extraLinks}</main></body></html>`;
  const paragraphs = (k: number) => PARAGRAPHS.map((p, i) => `<p>${PARAGRAPHS[(i + k) % PARAGRAPHS.length]} ${p}</p>`).join('');

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const changed = changedAt !== null;
    const version = changed && pages[path] && pages[path] !== 'none' ? 1 : 0;
    const log = (status: number) => served.push({ path, status, version, conditional: Boolean(req.headers['if-none-match'] || req.headers['if-modified-since']), at: Date.now() });
    const html = (status: number, body: string, headers: Record<string, string> = {}) => {
      log(status);
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
    };
    if (pages[path] !== undefined) {
      seen.add(path);
      if (!timer && Object.keys(pages).every((p) => seen.has(p))) timer = setTimeout(() => (changedAt = Date.now()), opts.delayMs ?? 20);
    }
    switch (path) {
      case '/':
        return html(200, page('Harbour Gazette', paragraphs(0), '<ul>' + Object.keys(pages).filter((p) => p !== '/').map((p) => `<li><a href="${p}">${p.slice(1)}</a></li>`).join('') + '</ul>'));
      case '/about':
        return html(200, page('About the Gazette', paragraphs(1)));
      case '/etag': {
        const etag = '"etag-v1"';
        if (req.headers['if-none-match'] === etag) {
          log(304);
          res.writeHead(304, { etag }).end();
          return;
        }
        return html(200, page('Tide tables', paragraphs(2)), { etag });
      }
      case '/dated':
        return html(200, page('Harbour history', paragraphs(3)), { 'last-modified': 'Mon, 02 Nov 2026 08:00:00 GMT' });
      case '/clock':
        return html(200, page('Harbour webcam', `${paragraphs(1)}<p>Page generated at ${new Date().toISOString()}.</p>`));
      case '/news':
        return html(200, page('News', version ? `<p>${REWRITE}</p><p>${REWRITE.split(' ').reverse().join(' ')}</p>` : paragraphs(2)));
      case '/menu':
        return html(200, page('Menu', paragraphs(3), version ? '<p><a href="/about">About us</a> <a href="/new-page">New page</a></p>' : '<p><a href="/about">About us</a></p>'));
      case '/gone':
        if (version) return html(404, '<h1>Not found</h1>');
        return html(200, page('Old notice', paragraphs(0)));
      case '/new-page':
        return html(200, page('New page', paragraphs(1)));
      default:
        log(404);
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const site: ChangingSite = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pages,
    served,
    get changedAt() {
      return changedAt;
    },
    close: () => new Promise((r) => { if (timer) clearTimeout(timer); server.closeAllConnections(); server.close(() => r()); }),
  };
  return site;
}

/**
 * The status each page must get, from what the site served: its first response is the visit, its
 * second the revisit; a 404 on revisit is missing, the same version unchanged, a new version the
 * page's change kind.
 */
export function groundTruth(site: ChangingSite): Map<string, 'unchanged' | 'content-changed' | 'links-changed' | 'missing'> {
  const truth = new Map<string, 'unchanged' | 'content-changed' | 'links-changed' | 'missing'>();
  for (const [path, kind] of Object.entries(site.pages)) {
    const responses = site.served.filter((s) => s.path === path);
    if (responses.length < 2) continue;
    const [visit, revisit] = responses as [ServedResponse, ServedResponse];
    const url = `${site.origin}${path}`;
    if (revisit.status >= 400) truth.set(url, 'missing');
    else if (revisit.version === visit.version) truth.set(url, 'unchanged');
    else truth.set(url, kind === 'content' ? 'content-changed' : kind === 'links' ? 'links-changed' : 'missing');
  }
  return truth;
}
