/**
 * robots.txt, sitemaps and feeds written to harm a crawler: a robots.txt of 50 MB, one of binary
 * garbage, one gzip-bombed (1 GB inflated) and one redirecting without end; sitemaps and feeds with
 * billion laughs, external entities (file:///etc/passwd, a remote DTD), a body past the size cap, a
 * gzipped sitemap bomb, sitemap indexes listing themselves or each other, and a feed that never
 * ends. One crawl of five loopback origins (one per robots.txt) with the engine finishes; each URL
 * has a crawl-log entry (or an exclusion) naming what became of it, no entity is expanded nor any
 * file read (the entry of a document whose DOCTYPE declared entities or named a DTD saying so),
 * memory stays bounded, and the WARC files read back with digests verified.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { crawlHostile, type HostileCrawl } from '../../support/hostile-crawl';

const MiB = 1024 * 1024;
/** The crawl's body cap: the 50 MB robots.txt, the huge sitemap and the endless feed pass it. */
const MAX_BODY = 4 * MiB;
const MAX_DECODED = 8 * MiB;

/** A line of the machine's own /etc/passwd: what an expanded external entity would bring in. */
const PASSWD_LINE = readFileSync('/etc/passwd', 'utf8').split('\n')[0]!;
/** Ten levels of ten: 10^9 "lol"s (3 GB) once expanded. */
const LAUGHS = `<!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`).join('')}]>`;

/**
 * A gzip body of `prefix` and then 1 GiB of line breaks: 1,024 gzip members of 1 MiB each (about
 * 1 KB apiece), which any gzip decoder reads back to back.
 */
function gzipBomb(prefix: string): Buffer {
  const member = gzipSync(Buffer.alloc(MiB, '\n'), { level: 9 });
  return Buffer.concat([gzipSync(prefix), ...Array<Buffer>(1024).fill(member)]);
}

/** Writes `chunks` while the client reads them, until they end or the client goes. */
function stream(res: ServerResponse, type: string, chunks: Iterator<string>): void {
  res.writeHead(200, { 'content-type': type });
  const pump = () => {
    for (let chunk = chunks.next(); !chunk.done; chunk = chunks.next()) if (!res.write(chunk.value)) return void res.once('drain', pump);
    res.end();
  };
  res.on('close', () => res.removeAllListeners('drain'));
  pump();
}

/** Deterministic bytes that are no text: a linear congruential generator's high bytes. */
function garbage(length: number): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0, x = 20261202; i < length; i++) out[i] = (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24;
  return out;
}

const send = (res: ServerResponse, type: string, body: string | Buffer, headers: Record<string, string> = {}) => void res.writeHead(200, { 'content-type': type, ...headers }).end(body);
const links = (paths: string[]) => paths.map((p) => `<a href="${p}">${p}</a>`).join(' ');
const urlset = (locs: string[], doctype = '') => `<?xml version="1.0"?>${doctype}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<url><loc>${l}</loc></url>`).join('')}</urlset>`;
const sitemapIndex = (locs: string[]) => `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join('')}</sitemapindex>`;

/** Each origin of the test: its own robots.txt, and the pages its home links to. */
type Site = 'main' | 'bigRobots' | 'garbageRobots' | 'bombRobots' | 'loopRobots';
const servers = new Map<Site, Server>();
const origins = {} as Record<Site, string>;
/** Requests each origin got, by path. */
const requested = {} as Record<Site, string[]>;
let robotsBomb: Buffer;
let sitemapBomb: Buffer;

const BIG_ROBOTS_HEAD = 'User-agent: *\nDisallow: /early\n';
/** A comment line of the 50 MB robots.txt: the rules it pads out are past what the crawl reads. */
const PADDING = `# ${'padding '.repeat(12)}\n`;
/** Past the 512 KiB of robots.txt the crawl reads (RFC 9309 §2.5), and within the bytes it fetches. */
const PAST_READ_RULE = 'Disallow: /past-read-limit\n';

const routes: Record<Site, Record<string, (req: IncomingMessage, res: ServerResponse) => void>> = {
  main: {
    '/robots.txt': (_q, res) =>
      send(res, 'text/plain', ['laughs', 'xxe', 'huge', 'bomb.xml.gz', 'self', 'ping'].map((n) => `Sitemap: ${origins.main}/sitemap-${n}${n.includes('.') ? '' : '.xml'}`).join('\n')),
    '/': (_q, res) => send(res, 'text/html', links(['/feed-laughs.rss', '/feed-xxe.atom', '/feed-endless.rss'])),
    '/sitemap-laughs.xml': (_q, res) => send(res, 'application/xml', urlset([`${origins.main}/from-laughs`, `${origins.main}/lol/&lol9;`], LAUGHS)),
    '/sitemap-xxe.xml': (_q, res) =>
      send(res, 'application/xml', urlset([`${origins.main}/from-xxe`, `${origins.main}/xxe?u=&xxe;`, '&xxe;'], `<!DOCTYPE urlset SYSTEM "${origins.main}/evil.dtd" [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>`)),
    // One <loc> whole, then one that never closes: 5 MB of it, past the body cap.
    '/sitemap-huge.xml': (_q, res) =>
      stream(res, 'application/xml', (function* () {
        yield `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origins.main}/from-huge</loc></url><url><loc>${origins.main}/never-`;
        for (let sent = 0; sent < 5 * MiB; sent += 16 * 1024) yield 'a'.repeat(16 * 1024);
      })()),
    '/sitemap-bomb.xml.gz': (_q, res) => send(res, 'application/gzip', sitemapBomb),
    '/sitemap-self.xml': (_q, res) => send(res, 'application/xml', sitemapIndex([`${origins.main}/sitemap-self.xml`, `${origins.main}/sitemap-leaf.xml`])),
    '/sitemap-leaf.xml': (_q, res) => send(res, 'application/xml', urlset([`${origins.main}/from-leaf`])),
    '/sitemap-ping.xml': (_q, res) => send(res, 'application/xml', sitemapIndex([`${origins.main}/sitemap-pong.xml`])),
    '/sitemap-pong.xml': (_q, res) => send(res, 'application/xml', sitemapIndex([`${origins.main}/sitemap-ping.xml`, `${origins.main}/sitemap-pong-leaf.xml`])),
    '/sitemap-pong-leaf.xml': (_q, res) => send(res, 'application/xml', urlset([`${origins.main}/from-pong`])),
    '/feed-laughs.rss': (_q, res) =>
      send(res, 'application/rss+xml', `<?xml version="1.0"?>${LAUGHS}<rss version="2.0"><channel><title>&lol9;</title><item><title>&lol9;</title><link>${origins.main}/from-feed-laughs</link></item></channel></rss>`),
    '/feed-xxe.atom': (_q, res) =>
      send(res, 'application/atom+xml',
        `<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY % remote SYSTEM "${origins.main}/evil-feed.dtd">%remote;]>` +
        `<feed xmlns="http://www.w3.org/2005/Atom"><title>&xxe;</title><entry><title>&xxe;</title><link href="${origins.main}/from-feed-xxe"/><summary>&xxe;</summary></entry></feed>`),
    // Items without end, as fast as the crawler reads them.
    '/feed-endless.rss': (_q, res) =>
      stream(res, 'application/rss+xml', (function* () {
        yield '<?xml version="1.0"?><rss version="2.0"><channel><title>endless</title>';
        for (;;) yield `<item><title>again</title><link>${origins.main}/from-endless</link></item>`.repeat(100);
      })()),
  },
  bigRobots: {
    '/robots.txt': (_q, res) =>
      stream(res, 'text/plain', (function* () {
        yield BIG_ROBOTS_HEAD;
        const lines = PADDING.repeat(1000);
        for (let sent = 0; sent < 50 * MiB; sent += lines.length) yield sent === 10 * lines.length ? PAST_READ_RULE + lines : lines;
        yield 'Disallow: /late\n';
      })()),
    '/': (_q, res) => send(res, 'text/html', links(['/early', '/past-read-limit', '/late'])),
  },
  garbageRobots: {
    '/robots.txt': (_q, res) => send(res, 'text/plain', garbage(64 * 1024)),
    '/': (_q, res) => send(res, 'text/html', links(['/after-garbage'])),
  },
  bombRobots: {
    '/robots.txt': (_q, res) => send(res, 'text/plain', robotsBomb, { 'content-encoding': 'gzip' }),
    '/': (_q, res) => send(res, 'text/html', links(['/bomb-private', '/bomb-public'])),
  },
  loopRobots: {
    '/': (_q, res) => send(res, 'text/html', links(['/after-loop'])),
  },
};

let crawl: HostileCrawl;
let peakRssGrowthMb: number;

before(async () => {
  robotsBomb = gzipBomb('User-agent: *\nDisallow: /bomb-private\n');
  sitemapBomb = gzipBomb(`<?xml version="1.0"?><urlset><url><loc>/from-bomb</loc></url>`);
  for (const site of Object.keys(routes) as Site[]) {
    requested[site] = [];
    const server = createServer((req, res) => {
      const path = req.url ?? '/';
      requested[site].push(path);
      // robots.txt redirecting to itself with one more query parameter, without end.
      if (site === 'loopRobots' && path.startsWith('/robots.txt')) return void res.writeHead(302, { location: `${path}${path.includes('?') ? '&' : '?'}again` }).end();
      const route = routes[site][path];
      if (route) return route(req, res);
      send(res, 'text/html', `<p>${path}</p>`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.set(site, server);
    origins[site] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  const rssBefore = process.resourceUsage().maxRSS;
  crawl = await crawlHostile(
    'tm-hostile-xml-',
    origins.main,
    {
      seeds: Object.values(origins).map((o) => `${o}/`),
      limits: { connectTimeoutMs: 2000, headersTimeoutMs: 5000, totalTimeoutMs: 20_000, maxRetries: 0, maxBodyBytes: MAX_BODY, maxDecodedBytes: MAX_DECODED },
    },
    '/',
    [PASSWD_LINE, 'lollol'],
  );
  peakRssGrowthMb = (process.resourceUsage().maxRSS - rssBefore) / 1024;
});

after(() => {
  for (const server of servers.values()) {
    server.closeAllConnections();
    server.close();
  }
});

/** The crawl-log entry of `path` on `site`. */
const logOf = (site: Site, path: string) => crawl.log.get(site === 'main' ? path : `${origins[site]}${path}`);
const captureOf = (site: Site, path: string) => crawl.captures.get(site === 'main' ? path : `${origins[site]}${path}`);
/** The crawl-log note on a sitemap's or feed's DOCTYPE left unexpanded (unexpandedDtdNote). */
const dtdNote = (document: string, declared: string, references: string) =>
  `the ${document}'s DOCTYPE ${declared}, as only XML's predefined entities and character references are read: ${references}`;
const READ_PART_ONLY = /^robots\.txt; longer than the 512 KiB of it read for rules \(RFC 9309 §2\.5\): rules past them do not apply$/;

test('a robots.txt of 50 MB is fetched up to the body cap and read for its first 512 KiB: its rules there apply, those past them do not, and its entry says so', () => {
  const entry = logOf('bigRobots', '/robots.txt');
  assert.equal(entry?.outcome, 'truncated-length');
  assert.match(entry?.message ?? '', READ_PART_ONLY);
  assert.equal(captureOf('bigRobots', '/robots.txt')?.size, MAX_BODY);
  assert.equal(logOf('bigRobots', '/early')?.outcome, 'robots', 'the rule at its start is obeyed');
  assert.equal(logOf('bigRobots', '/early')?.message, 'disallowed by robots.txt');
  assert.equal(requested.bigRobots.includes('/early'), false);
  for (const path of ['/past-read-limit', '/late']) assert.equal(captureOf('bigRobots', path)?.status, 200, `${path}: its rule is past what is read`);
});

test('a gzip-bombed robots.txt (1 GB inflated) is archived as it came and read for its first 512 KiB: its Disallow obeyed, its entry saying the rest was not read', () => {
  const entry = logOf('bombRobots', '/robots.txt');
  assert.equal(entry?.outcome, 'ok');
  assert.match(entry?.message ?? '', READ_PART_ONLY);
  assert.equal(captureOf('bombRobots', '/robots.txt')?.size, robotsBomb.length, 'the coded bytes, as received');
  assert.equal(logOf('bombRobots', '/bomb-private')?.outcome, 'robots');
  assert.equal(requested.bombRobots.includes('/bomb-private'), false);
  assert.equal(captureOf('bombRobots', '/bomb-public')?.status, 200);
});

test('a robots.txt of binary garbage has no rule line: nothing is disallowed (RFC 9309 §2.2), and its entry says so', () => {
  assert.equal(logOf('garbageRobots', '/robots.txt')?.message, 'robots.txt; no line of it is a rule (User-agent, Allow, Disallow, Crawl-delay, Sitemap): no rule disallows any URL of the host');
  assert.equal(captureOf('garbageRobots', '/after-garbage')?.status, 200);
});

test('a robots.txt redirecting without end: five redirects followed, each archived; the sixth request\'s entry says robots.txt is unavailable, and the host is crawled', () => {
  const hops = requested.loopRobots.filter((p) => p.startsWith('/robots.txt'));
  assert.equal(hops.length, 6, 'robots.txt and five redirects');
  for (const hop of hops) assert.equal(captureOf('loopRobots', hop)?.status, 302, hop);
  assert.equal(logOf('loopRobots', hops[4]!)?.message, 'robots.txt');
  assert.match(logOf('loopRobots', hops[5]!)?.message ?? '', /^robots\.txt; a redirect past the 5 in a row followed for robots\.txt: taken as unavailable \(RFC 9309 §2\.3\.1\.2\)/);
  assert.equal(captureOf('loopRobots', '/after-loop')?.status, 200);
});

test('billion laughs in a sitemap and a feed: no entity expanded (the reference stays as written), their other URLs followed, their entries saying so', () => {
  for (const path of ['/sitemap-laughs.xml', '/feed-laughs.rss', '/from-laughs', '/from-feed-laughs']) assert.equal(logOf('main', path)?.outcome, 'ok', path);
  assert.equal(logOf('main', '/sitemap-laughs.xml')?.message, dtdNote('sitemap', 'declares 10 entities (not expanded)', '1 entity reference left as written (&lol9;)'));
  assert.equal(logOf('main', '/feed-laughs.rss')?.message, dtdNote('feed', 'declares 10 entities (not expanded)', '2 entity references left as written (&lol9;)'));
  assert.equal(logOf('main', '/from-laughs')?.message, null, 'a page they list has no such note');
  assert.equal(captureOf('main', '/lol/&lol9;')?.status, 200, 'the <loc> holding the reference is the URL as written');
  assert.equal(crawl.inWarcs.has('lollol'), false, 'nothing expanded in any record');
  for (const url of crawl.urls) assert.doesNotMatch(url, /lollol/);
  for (const [path, entry] of crawl.log) assert.doesNotMatch(`${path} ${entry.message}`, /lollol/);
});

test('external entities (file:///etc/passwd) and remote DTDs in a sitemap and a feed: no file read, no DTD requested, the file\'s text nowhere, their entries saying so', () => {
  for (const path of ['/sitemap-xxe.xml', '/feed-xxe.atom', '/from-xxe', '/from-feed-xxe']) assert.equal(logOf('main', path)?.outcome, 'ok', path);
  assert.equal(
    logOf('main', '/sitemap-xxe.xml')?.message,
    dtdNote('sitemap', `declares 1 entity, 1 of them external (not expanded nor fetched) and names the external DTD "${origins.main}/evil.dtd" (not fetched)`, '2 entity references left as written (&xxe;)'),
  );
  assert.equal(logOf('main', '/feed-xxe.atom')?.message, dtdNote('feed', 'declares 2 entities, 2 of them external (not expanded nor fetched)', '3 entity references left as written (&xxe;)'));
  assert.equal(captureOf('main', '/xxe?u=&xxe;')?.status, 200, 'the reference stays as written');
  for (const dtd of ['/evil.dtd', '/evil-feed.dtd']) assert.equal(requested.main.includes(dtd), false, dtd);
  assert.equal(crawl.inWarcs.has(PASSWD_LINE), false, 'no record holds a line of /etc/passwd');
  for (const url of crawl.urls) assert.equal(url.includes(PASSWD_LINE), false, url);
  for (const [path, entry] of crawl.log) assert.equal(`${path} ${entry.message}`.includes(PASSWD_LINE), false, path);
});

test('a sitemap past the body cap is cut there and archived so; its whole <loc> is followed, the cut one is not, and its entry quotes it', () => {
  const entry = logOf('main', '/sitemap-huge.xml');
  assert.equal(entry?.outcome, 'truncated-length');
  assert.match(entry?.message ?? '', /^last <loc> of the sitemap not followed, as the document ends inside it .*: "http:\/\/127\.0\.0\.1:\d+\/never-a+…"$/);
  assert.equal(captureOf('main', '/sitemap-huge.xml')?.truncated, 'length');
  assert.equal(captureOf('main', '/from-huge')?.status, 200);
  assert.equal(crawl.urls.some((u) => u.startsWith('/never-')), false);
});

test('a gzipped sitemap bomb (.xml.gz, 1 GB inflated) is archived as it came, its decoding stopped at the cap: decompression-bomb, saying so', () => {
  const entry = logOf('main', '/sitemap-bomb.xml.gz');
  assert.equal(entry?.outcome, 'decompression-bomb');
  assert.match(entry?.message ?? '', new RegExp(`sitemap-bomb\\.xml\\.gz is larger than ${MAX_DECODED} bytes when decompressed`));
  assert.equal(captureOf('main', '/sitemap-bomb.xml.gz')?.size, sitemapBomb.length);
});

test('a sitemap index listing itself, and two listing each other, are each fetched once; the sitemaps they list are read', () => {
  for (const path of ['/sitemap-self.xml', '/sitemap-ping.xml', '/sitemap-pong.xml']) {
    assert.equal(requested.main.filter((p) => p === path).length, 1, path);
    assert.equal(logOf('main', path)?.outcome, 'ok', path);
  }
  for (const path of ['/from-leaf', '/from-pong']) assert.equal(captureOf('main', path)?.status, 200, path);
});

test('a feed without end is cut at the body cap (truncated-length), its items read up to the cut followed', () => {
  assert.equal(logOf('main', '/feed-endless.rss')?.outcome, 'truncated-length');
  assert.equal(captureOf('main', '/feed-endless.rss')?.size, MAX_BODY);
  assert.equal(captureOf('main', '/from-endless')?.status, 200);
});

test('memory stays bounded: the bombs and oversized bodies raised the peak resident size by less than 400 MB', () => {
  assert.ok(peakRssGrowthMb < 400, `${Math.round(peakRssGrowthMb)} MB`);
});
