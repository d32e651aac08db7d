import type { RequestListener } from 'node:http';

/** A home page linking to /a, whose text changes at every request (each fetch of it is a full response record). */
export const changingPageSite: RequestListener = (req, res) => {
  const path = req.url ?? '/';
  const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
  if (path === '/') return html('<a href="/a">a</a>');
  if (path === '/a') return html(`<p>a at ${process.hrtime.bigint()}</p>`);
  res.writeHead(404).end();
};
