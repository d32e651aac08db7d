import { countedSite } from './counted-site';

/** /p's whole body: a paragraph, and a link to /q in its second half. */
export const CUT_PAGE_BODY = `<html><body><p>${'the tide is high '.repeat(40)}</p><a href="/q">q</a></body></html>`;

/**
 * A loopback site whose page /p (linked from /) first answers half the body its Content-Length
 * announces, then closes the connection; whole (CUT_PAGE_BODY) every time after. `requests` counts by path.
 */
export function cutBodySite(): ReturnType<typeof countedSite> {
  return countedSite((path, n, _req, res) => {
    const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (path === '/') return html('<a href="/p">p</a>');
    if (path === '/p') {
      if (n > 1) return html(CUT_PAGE_BODY);
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(Buffer.byteLength(CUT_PAGE_BODY)) });
      res.write(CUT_PAGE_BODY.slice(0, CUT_PAGE_BODY.length / 2), () => res.socket?.destroy());
      return;
    }
    if (path === '/q') return html('<p>q</p>');
    res.writeHead(404).end();
  });
}
