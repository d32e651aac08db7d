import { countedSite } from './counted-site';

/** /p's whole body: a paragraph, and a link to /q in its second half. */
export const CUT_PAGE_BODY = `<html><body><p>${'the tide is high '.repeat(40)}</p><a href="/q">q</a></body></html>`;

/** What /p's first answer sends of CUT_PAGE_BODY before the connection closes. */
const CUT_HALF = CUT_PAGE_BODY.slice(0, CUT_PAGE_BODY.length / 2);

/**
 * A loopback site whose page /p (linked from /) first answers half the body its Content-Length
 * announces, then closes the connection; whole (CUT_PAGE_BODY) every time after. `requests` counts by path.
 * With `etag`, /p's answers carry it (a strong validator) and a request for /p whose If-None-Match
 * names it gets a 304; `ifNoneMatch` lists each request's If-None-Match for /p (null: none).
 * With `alwaysNotModified`, every request for /p after the first gets a 304, validators or not
 * (as some servers wrongly answer). With `halfTwin`, / links /half too, which answers whole what
 * /p's cut visit got: another page's whole record with the cut one's payload digest.
 */
export function cutBodySite(o: { etag?: string; alwaysNotModified?: boolean; halfTwin?: boolean } = {}): ReturnType<typeof countedSite> & { ifNoneMatch: (string | null)[] } {
  const ifNoneMatch: (string | null)[] = [];
  const validators: Record<string, string> = o.etag ? { etag: o.etag } : {};
  const site = countedSite((path, n, req, res) => {
    const html = (body: string, headers: Record<string, string> = {}) => void res.writeHead(200, { 'content-type': 'text/html', ...headers }).end(body);
    if (path === '/') return html(o.halfTwin ? '<a href="/p">p</a> <a href="/half">half</a>' : '<a href="/p">p</a>');
    if (path === '/half' && o.halfTwin) return html(CUT_HALF);
    if (path === '/p') {
      const asked = req.headers['if-none-match'] ?? null;
      ifNoneMatch.push(asked);
      if ((o.etag && asked === o.etag) || (o.alwaysNotModified && n > 1)) return void res.writeHead(304, validators).end();
      if (n > 1) return html(CUT_PAGE_BODY, validators);
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(Buffer.byteLength(CUT_PAGE_BODY)), ...validators });
      res.write(CUT_HALF, () => res.socket?.destroy());
      return;
    }
    if (path === '/q') return html('<p>q</p>');
    res.writeHead(404).end();
  });
  return { ...site, ifNoneMatch };
}
