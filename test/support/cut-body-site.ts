import { countedSite } from './counted-site';

/** /p's whole body: a paragraph, and a link to /q in its second half. */
export const CUT_PAGE_BODY = `<html><body><p>${'the tide is high '.repeat(40)}</p><a href="/q">q</a></body></html>`;

/**
 * A loopback site whose page /p (linked from /) first answers half the body its Content-Length
 * announces, then closes the connection; whole (CUT_PAGE_BODY) every time after. `requests` counts by path.
 * With `etag`, /p's answers carry it (a strong validator) and a request for /p whose If-None-Match
 * names it gets a 304; `ifNoneMatch` lists each request's If-None-Match for /p (null: none).
 */
export function cutBodySite(o: { etag?: string } = {}): ReturnType<typeof countedSite> & { ifNoneMatch: (string | null)[] } {
  const ifNoneMatch: (string | null)[] = [];
  const validators: Record<string, string> = o.etag ? { etag: o.etag } : {};
  const site = countedSite((path, n, req, res) => {
    const html = (body: string, headers: Record<string, string> = {}) => void res.writeHead(200, { 'content-type': 'text/html', ...headers }).end(body);
    if (path === '/') return html('<a href="/p">p</a>');
    if (path === '/p') {
      const asked = req.headers['if-none-match'] ?? null;
      ifNoneMatch.push(asked);
      if (o.etag && asked === o.etag) return void res.writeHead(304, validators).end();
      if (n > 1) return html(CUT_PAGE_BODY, validators);
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(Buffer.byteLength(CUT_PAGE_BODY)), ...validators });
      res.write(CUT_PAGE_BODY.slice(0, CUT_PAGE_BODY.length / 2), () => res.socket?.destroy());
      return;
    }
    if (path === '/q') return html('<p>q</p>');
    res.writeHead(404).end();
  });
  return { ...site, ifNoneMatch };
}
