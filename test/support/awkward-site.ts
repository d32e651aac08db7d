import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip, gzipSync } from 'node:zlib';
import { gzipDamagedAfterFirstBlock } from './damaged-gzip';

export interface AwkwardSite {
  origin: string;
  requests: { path: string; at: number; end?: number }[];
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const html = (body: string, charsetHeader = 'utf-8') => ({ type: `text/html; charset=${charsetHeader}`, body });

/**
 * A site full of the awkward routes a crawler meets (Heritrix's FetchHTTPTestServers in spirit):
 * redirect chains and loops, a slow page, a 50 MB page, a gzip bomb, a calendar trap, malformed
 * HTML, wrong charsets, a connection reset, and hostile markup, CSS and headers. The index links
 * every route. `bombMegabytes`: what the gzip bomb inflates to (1,024 by default; compressing it
 * on the fly takes the site about 3 s a gigabyte).
 */
export async function startAwkwardSite(opts: { robots?: string; bombMegabytes?: number } = {}): Promise<AwkwardSite> {
  const bombMegabytes = opts.bombMegabytes ?? 1024;
  const requests: AwkwardSite['requests'] = [];
  const routes: Record<string, Handler> = {
    '/': (req, res) => send(res, html(`<h1>Index</h1> <a href="//user:secret@${req.headers.host}/final">the end, with credentials</a>
      <a href="/redirect/1">chain</a> <a href="/loop/a">loop</a> <a href="/slow">slow</a> <a href="/huge">huge</a>
      <a href="/bomb">bomb</a> <a href="/calendar/2026/01/01">calendar</a> <a href="/malformed">malformed</a>
      <a href="/latin1">latin1</a> <a href="/nocharset">nocharset</a> <a href="/reset">reset</a> <a href="/private/secret">secret</a>
      <a href="/error500">500</a> <a href="/dup1">dup1</a> <a href="/dup2">dup2</a>
      <a href="/hostile/nested">nested</a> <a href="/hostile/page">hostile stylesheet</a> <a href="/hostile/headers">odd headers</a> <a href="/hostile/folded">a folded header</a> <a href="/hostile/length-twice">one length twice</a>
      <a href="/hostile/farm">link farm</a> <a href="/hostile/title">long title</a>
      <a href="/redirect/ftp">ftp</a> <a href="/redirect/nowhere">nowhere</a> <a href="/redirect/broken">broken</a>
      <a href="/coding/unknown">zstd</a> <a href="/coding/damaged">damaged gzip</a> <a href="/coding/short">short gzip</a>`)),
    // A title of 100,000 characters, spread over lines: the capture keeps its first 300, whitespace collapsed.
    '/hostile/title': (_q, res) => send(res, html(`<title>${'Very\n   long '.repeat(20_000)}</title><p>titled</p>`)),
    // More links than the crawl's test ICD follows from one page (scope.maxOutLinksPerPage 100).
    '/hostile/farm': (_q, res) => send(res, html(Array.from({ length: 150 }, (_, i) => `<a href="/farm/${i + 1}">${i + 1}</a>`).join(' '))),
    // 100,000 nested elements, then a link: parsed in time proportional to the depth, not its square.
    '/hostile/nested': (_q, res) => send(res, html(`${'<div>'.repeat(100_000)}<a href="/hostile/after-nesting">after</a>`)),
    '/hostile/after-nesting': (_q, res) => send(res, html('<p>found below 100,000 open elements</p>')),
    '/hostile/page': (_q, res) => send(res, html('<link rel="stylesheet" href="/hostile/style.css"><p>styled</p>')),
    // "url(" then 50,000 spaces: a scanner that splits them every way never gets to the real url().
    '/hostile/style.css': (_q, res) => send(res, { type: 'text/css', body: `a{background:url(${' '.repeat(50_000)}} b{background:url(/hostile/from-css.png)}` }),
    '/hostile/from-css.png': (_q, res) => send(res, { type: 'image/png', body: Buffer.from([0x89, 0x50, 0x4e, 0x47]) }),
    // A header value with bytes that are not ASCII (obs-text), written raw: Node's server refuses to.
    '/hostile/headers': (req) => {
      const body = '<p>odd headers</p>';
      req.socket.end(Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Odd: caf'), Buffer.from([0xe9, 0xff]), Buffer.from(`\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`)]));
    },
    // A header folded over two lines (obs-fold, RFC 9112 §5.2), which undici's parser refuses.
    '/hostile/folded': (req) => {
      const body = '<a href="/hostile/from-folded">read</a>';
      req.socket.end(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Folded: one\r\n  two\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    },
    '/hostile/from-folded': (_q, res) => send(res, html('<p>found on a page read leniently</p>')),
    // One Content-Length given twice (RFC 9110 §8.6 lets a client read it as one), which llhttp refuses either way.
    '/hostile/length-twice': (req) => {
      const body = '<a href="/hostile/from-length-twice">read</a>';
      req.socket.end(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${body.length}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    },
    '/hostile/from-length-twice': (_q, res) => send(res, html('<p>found on a page whose length was given twice</p>')),
    '/dup1': (_q, res) => send(res, html('<p>the same bytes twice</p>')),
    '/dup2': (_q, res) => send(res, html('<p>the same bytes twice</p>')),
    '/redirect/1': (_q, res) => redirect(res, '/redirect/2'),
    '/redirect/2': (_q, res) => redirect(res, '/redirect/3'),
    '/redirect/3': (_q, res) => redirect(res, '/final'),
    '/final': (_q, res) => send(res, html('<p>end of the chain</p>')),
    // Redirects that lead to nothing a crawler fetches: another scheme, no Location, a Location that is no URL.
    '/redirect/ftp': (_q, res) => redirect(res, 'ftp://files.example/harbour.pdf'),
    '/redirect/nowhere': (_q, res) => void res.writeHead(302).end(),
    '/redirect/broken': (_q, res) => redirect(res, 'http://[::zz/harbour'),
    // Content codings a crawler cannot undo to the end: one it does not know, corrupt data, a stream
    // that stops early though its Content-Length is right. Each page links on past the damage or not.
    '/coding/unknown': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'zstd' }).end('<a href="/coding/after-unknown">plain after all</a>'),
    '/coding/damaged': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipDamagedAfterFirstBlock(codedPage).bytes),
    '/coding/short': (_q, res) => {
      const coded = gzipSync(codedPage);
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(coded.subarray(0, coded.length >> 1));
    },
    '/coding/before-damage': (_q, res) => send(res, html('<p>linked before the damage</p>')),
    '/coding/after-unknown': (_q, res) => send(res, html('<p>linked from a body labelled zstd, sent plain</p>')),
    '/loop/a': (_q, res) => redirect(res, '/loop/b'),
    '/loop/b': (_q, res) => redirect(res, '/loop/a'),
    '/slow': (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<p>slow start');
      const timer = setTimeout(() => res.end('</p>'), 60_000);
      res.on('close', () => clearTimeout(timer));
    },
    '/huge': (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(50 * 1024 * 1024) });
      const chunk = Buffer.alloc(64 * 1024, 120);
      let sent = 0;
      const pump = () => {
        while (sent < 50 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return res.once('drain', pump);
        }
        res.end();
      };
      pump();
    },
    '/bomb': (_q, res) => {
      // bombMegabytes of zeros (~1 GB), gzip-compressed on the fly: about a thousandth of it on the wire.
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      const gz = createGzip({ level: 9 });
      gz.pipe(res);
      const zeros = Buffer.alloc(1024 * 1024);
      let n = 0;
      const pump = () => {
        while (n < bombMegabytes) {
          n += 1;
          if (!gz.write(zeros)) return gz.once('drain', pump);
        }
        gz.end();
      };
      res.on('close', () => gz.destroy());
      pump();
    },
    '/malformed': (_q, res) => send(res, html('<html><body><p>unclosed <a href="/final">link<div><table><tr><td><a href=/deep>deep</a><<>>\u0000\u0001 <script>var x = "</p>";</script>')),
    '/deep': (_q, res) => send(res, html('<p>deep page</p>')),
    '/latin1': (_q, res) => send(res, { type: 'text/html; charset=utf-8', body: Buffer.from('<meta charset="iso-8859-1"><p>caf\xe9 <a href="/caf%E9">caf\xe9</a></p>', 'latin1') }),
    '/nocharset': (_q, res) => send(res, { type: 'text/html', body: '<p>no charset <a href="/final">final</a></p>' }),
    '/reset': (req) => req.socket.destroy(),
    '/private/secret': (_q, res) => send(res, html('<p>robots should not fetch this</p>')),
    '/error500': (_q, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('broken');
    },
    '/robots.txt': (_q, res) => {
      if (!opts.robots) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end(opts.robots);
    },
  };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const entry: AwkwardSite['requests'][number] = { path, at: Date.now() };
    requests.push(entry);
    res.on('finish', () => (entry.end = Date.now()));
    if (path.startsWith('/farm/')) {
      send(res, html('<p>a farmed page</p>'));
      return;
    }
    const calendar = /^\/calendar\/(\d+)\/(\d+)\/(\d+)$/.exec(path);
    if (calendar) {
      // An endless calendar: every day links the next day and the next month.
      const d = new Date(Date.UTC(Number(calendar[1]), Number(calendar[2]) - 1, Number(calendar[3])));
      const next = new Date(d.getTime() + 86_400_000);
      const month = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
      const link = (x: Date) => `/calendar/${x.getUTCFullYear()}/${String(x.getUTCMonth() + 1).padStart(2, '0')}/${String(x.getUTCDate()).padStart(2, '0')}`;
      send(res, html(`<p>${d.toISOString()}</p><a href="${link(next)}">next day</a> <a href="${link(month)}">next month</a>`));
      return;
    }
    const route = routes[path];
    if (route) route(req, res);
    else {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>Not found</h1>');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

/** A page longer than one stored gzip block (64 KB), its one link at the start: read whatever the damage after. */
const codedPage = Buffer.from(`<a href="/coding/before-damage">first</a>${'<p>Tide tables for the harbour.</p>'.repeat(3000)}`);

function send(res: ServerResponse, page: { type: string; body: string | Buffer }): void {
  res.writeHead(200, { 'content-type': page.type });
  res.end(page.body);
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location });
  res.end();
}
