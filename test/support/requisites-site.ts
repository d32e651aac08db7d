/** A loopback site of pages with requisites, and how to read an export's captures back (export tests). */
import { readdirSync, readFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

const BOAT = Buffer.from('89504e470d0a1a0a626f6174', 'hex');
const SEA = Buffer.from('89504e470d0a1a0a736561', 'hex');
const FRAME_IMAGE = Buffer.from('89504e470d0a1a0a6672616d65', 'hex');

/** Requests for /quay per site (host:port): its text changes at every fetch, so a revisit finds it changed. */
const quayFetches = new Map<string, number>();

/**
 * A site whose pages embed things: /harbour an image, a stylesheet with its own image, a script and
 * an iframe with an image; /quay a copy of the boat image under another name (a revisit), its text
 * changing at every fetch; /old/harbour redirects to /harbour.
 */
export const harbourSite: RequestListener = (req, res) => {
  const path = req.url ?? '/';
  const send = (type: string, body: string | Buffer) => void res.writeHead(200, { 'content-type': type }).end(body);
  const html = (body: string) => send('text/html', `<!doctype html><title>${path}</title>${body}`);
  if (path === '/') return html('<a href="/harbour">harbour</a> <a href="/quay">quay</a> <a href="/old/harbour">old</a>');
  // A page with an image, a stylesheet with its own image, a script, and an iframe with an image.
  if (path === '/harbour') return html('<link rel="stylesheet" href="/style.css"><script src="/tides.js"></script><img src="/img/boat.png"><iframe src="/frame"></iframe><p>boats</p>');
  if (path === '/style.css') return send('text/css', 'body { background: url(/img/sea.png) }');
  if (path === '/tides.js') return send('text/javascript', 'document.title += " at high water";');
  if (path === '/frame') return html('<img src="/img/frame.png">');
  if (path === '/img/boat.png') return send('image/png', BOAT);
  if (path === '/img/sea.png') return send('image/png', SEA);
  if (path === '/img/frame.png') return send('image/png', FRAME_IMAGE);
  // The boat again under another name: archived as a revisit of /img/boat.png.
  if (path === '/quay') {
    const n = (quayFetches.get(req.headers.host ?? '') ?? 0) + 1;
    quayFetches.set(req.headers.host ?? '', n);
    return html(`<img src="/img/copy-of-boat.png"><p>the quay, ${n === 1 ? 'empty at dawn' : 'crowded with the market stalls of the whole town at noon'}</p>`);
  }
  if (path === '/img/copy-of-boat.png') return send('image/png', BOAT);
  if (path === '/old/harbour') return void res.writeHead(301, { location: '/harbour' }).end();
  res.writeHead(404).end();
};

/** The response and revisit records of an export's WARC files, as `<type> <path>`. */
export function capturesIn(exportDir: string, origin: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(exportDir).filter((n) => n.endsWith('.warc.gz'))) {
    for (const record of gunzipSync(readFileSync(join(exportDir, name))).toString('latin1').split('WARC/1.1\r\n').slice(1)) {
      const type = /^WARC-Type: (.*)\r$/m.exec(record)?.[1];
      if (type !== 'response' && type !== 'revisit') continue;
      out.push(`${type} ${/^WARC-Target-URI: (.*)\r$/m.exec(record)![1]!.slice(origin.length)}`);
    }
  }
  return out.sort();
}
