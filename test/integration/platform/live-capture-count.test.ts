/**
 * The live capture events of a real crawl, as a page's socket receives them: each carries the
 * newest captures only, and the count of all the captures it stands for, so a page adding them up
 * counts every capture of a crawl however fast it goes. Real parts: the cockpit (server, worker,
 * SQLite), a socket.io client signed in with the session cookie, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { io } from 'socket.io-client';
import { signedInAdmin, startCockpit } from '../../support/cockpit';
import { withSite } from '../../support/site-crawl';

const PAGES = 400;
/** Each page links to the next ten: the crawl's queue fills at once and it fetches as fast as it can. */
const site: RequestListener = (req, res) => {
  if (req.url === '/robots.txt') return void res.writeHead(404).end();
  const n = Number(/^\/p\/(\d+)$/.exec(new URL(req.url ?? '/', 'http://site').pathname)?.[1] ?? 0);
  const links = Array.from({ length: 10 }, (_, k) => n + 1 + k).filter((m) => m < PAGES);
  res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${n}</title>${links.map((m) => `<a href="/p/${m}">${m}</a>`).join('')}`);
};

test('the capture events of a crawl count all its captures, those they do not carry and robots.txt\'s too', { timeout: 300_000 }, async (t) => {
  const cockpit = await startCockpit();
  t.after(() => cockpit.stop());
  const api = await signedInAdmin(cockpit);
  await withSite(site, async (origin) => {
    const icd = await api.json<{ id: number }>('POST', '/api/icds', {
      name: 'Fast', seeds: [`${origin}/`], scope: { maxDepth: 1000, includeFavicon: false }, politeness: { enabled: false }, aah: { enabled: false },
    });
    const socket = io(cockpit.url, { transports: ['websocket'], reconnection: false, extraHeaders: { cookie: api.cookie } });
    t.after(() => socket.close());
    await new Promise<void>((resolve, reject) => (socket.on('connect', resolve), socket.on('connect_error', reject)));
    // The crawl's id is not known before it starts, nor may its first events be missed: every likely id is listened to.
    const counted = new Map<number, { count: number; carried: number }>();
    for (let id = 1; id <= 20; id++) {
      assert.deepEqual(await socket.timeout(5000).emitWithAck('subscribe', { crawlId: id }), { ok: true });
      socket.on(`crawl:${id}:capture`, (payload: { captures: unknown[]; count: number }) => {
        const sum = counted.get(id) ?? { count: 0, carried: 0 };
        counted.set(id, { count: sum.count + payload.count, carried: sum.carried + payload.captures.length });
      });
    }
    const crawl = await api.json<{ id: number }>('POST', '/api/crawls', { icdId: icd.id });
    assert.ok(crawl.id <= 20);
    assert.equal(await api.waitForCrawlStatus(crawl.id, ['finished'], 240_000), 'finished');
    // The last batch leaves the server within a flush (0.5 s).
    await new Promise((r) => setTimeout(r, 1500));
    const stored = await api.json<{ total: number }>('GET', `/api/crawls/${crawl.id}/captures?page=1&pageSize=1`);
    const robots = await api.json<{ total: number }>('GET', `/api/crawls/${crawl.id}/captures?page=1&pageSize=1&q=robots.txt`);
    assert.equal(robots.total, 1);
    assert.equal(stored.total - robots.total, PAGES, '/ and /p/1 to /p/399');
    // robots.txt's capture too: it is no frontier URL, and was archived without a capture event.
    const sum = counted.get(crawl.id);
    assert.equal(sum?.count, stored.total, `events counted ${sum?.count} (carrying ${sum?.carried}) of ${stored.total} captures`);
  });
});
