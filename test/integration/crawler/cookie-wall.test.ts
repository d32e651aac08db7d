/**
 * A cookie wall: `/` answers 302 + Set-Cookie (consent) → `/home`, which without the cookie
 * sends the visitor back to `/` and with it links to `/inner`, itself answering 200 only to a
 * visitor holding it. A crawl that keeps cookies (the ICD's default) gets past it and archives the
 * Cookie header it sent; with `"cookies": false` it sends none. A wall that redirects a URL to itself
 * is got past too: that URL is fetched once more, with the cookie, once. The real CLI.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import { WARCParser } from 'warcio';
import Database from 'better-sqlite3';
import { runCli } from '../../support/run-cli';
import { withSite } from '../../support/site-crawl';
import { withTempDir } from '../../support/temp-dir';
import { SELF_REDIRECT_RETAKEN } from '../../../worker/crawler/commit-item';

/** A cookie wall that notes every Cookie header it is sent. */
function cookieWall(cookiesSeen: string[]): RequestListener {
  return (req, res) => {
    if (req.headers.cookie) cookiesSeen.push(req.headers.cookie);
    const consented = /(^|;\s*)consent=yes(;|$)/.test(req.headers.cookie ?? '');
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    if (req.url === '/') return void res.writeHead(302, consented ? { location: '/home' } : { location: '/home', 'set-cookie': 'consent=yes; Path=/' }).end();
    if (req.url === '/home') {
      if (!consented) return void res.writeHead(302, { location: '/' }).end();
      return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>home</title><a href="/inner">inner</a>');
    }
    if (req.url === '/inner') {
      if (!consented) return void res.writeHead(302, { location: '/' }).end();
      return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>inner</title>');
    }
    res.writeHead(404).end();
  };
}

/** The WARC request records of a folder's WARC files, by target URI: their HTTP heads. */
async function requestHeads(dir: string): Promise<Map<string, string[]>> {
  const heads = new Map<string, string[]>();
  for (const file of readdirSync(dir, { recursive: true }).map(String).filter((n) => /\.warc(\.gz)?$/.test(n))) {
    for await (const record of new WARCParser(createReadStream(join(dir, file)), { parseHttp: false })) {
      if (record.warcType !== 'request') continue;
      const uri = record.warcTargetURI!;
      heads.set(uri, [...(heads.get(uri) ?? []), Buffer.from(await record.readFully(false)).toString('latin1')]);
    }
  }
  return heads;
}

function statusesOf(out: string): Map<string, number | null> {
  const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
  try {
    const rows = db.prepare('SELECT url, status FROM Capture').all() as { url: string; status: number | null }[];
    return new Map(rows.map((r) => [r.url, r.status]));
  } finally {
    db.close();
  }
}

async function crawl(origin: string, out: string, fields: Record<string, unknown>): Promise<void> {
  const icdPath = join(out, 'wall.icd.json');
  writeFileSync(icdPath, JSON.stringify({ name: 'Cookie wall', seeds: [`${origin}/`], ...fields }));
  const run = await runCli(['crawl', icdPath, '--out', join(out, 'crawl'), '--no-politeness', '--json']).done;
  assert.equal(run.code, 0, run.stderr.slice(-1000));
}

test('a crawl keeps the cookie a site sets, gets past its cookie wall, and archives the Cookie it sent', { timeout: 90_000 }, async () => {
  const seen: string[] = [];
  await withSite(cookieWall(seen), async (origin) => {
    await withTempDir('tm-cookie-wall-', async (out) => {
      await crawl(origin, out, {});
      assert.ok(seen.includes('consent=yes'), `the server was sent the cookie (saw ${JSON.stringify(seen)})`);
      assert.equal(statusesOf(join(out, 'crawl')).get(`${origin}/inner`), 200);
      const inner = (await requestHeads(join(out, 'crawl'))).get(`${origin}/inner`) ?? [];
      assert.ok(inner.length > 0, 'the request for /inner is archived');
      assert.ok(inner.every((head) => head.includes('\r\nCookie: consent=yes\r\n')), inner.join('\n---\n'));
    });
  });
});

test('with "cookies": false the same crawl never sends a Cookie header', { timeout: 90_000 }, async () => {
  const seen: string[] = [];
  await withSite(cookieWall(seen), async (origin) => {
    await withTempDir('tm-cookie-wall-off-', async (out) => {
      await crawl(origin, out, { cookies: false });
      assert.deepEqual(seen, []);
      const heads = [...(await requestHeads(join(out, 'crawl'))).values()].flat();
      assert.ok(heads.length > 0);
      assert.ok(heads.every((head) => !/\r\ncookie:/i.test(head)));
      assert.notEqual(statusesOf(join(out, 'crawl')).get(`${origin}/inner`), 200);
    });
  });
});

test('a wall redirecting a URL to itself with its cookie is got past: the URL fetched once more, once, even from a server that always does so', { timeout: 90_000 }, async () => {
  const asked = new Map<string, number>();
  let served = 0;
  await withSite((req, res) => {
    asked.set(req.url ?? '', (asked.get(req.url ?? '') ?? 0) + 1);
    const consented = /(^|;\s*)consent=yes(;|$)/.test(req.headers.cookie ?? '');
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    if (req.url === '/' && !consented) return void res.writeHead(302, { location: '/', 'set-cookie': 'consent=yes; Path=/' }).end();
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><a href="/inner">inner</a> <a href="/always">always</a>');
    // A new cookie and the same URL on every request: taken twice, then left as the redirect it is.
    if (req.url === '/always') return void res.writeHead(302, { location: '/always', 'set-cookie': `visit=${++served}; Path=/` }).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>inside</p>');
  }, async (origin) => {
    await withTempDir('tm-cookie-wall-self-', async (out) => {
      await crawl(origin, out, {});
      const db = new Database(join(out, 'crawl', 'tidemark-state.db'), { readonly: true });
      try {
        const captures = (url: string) => db.prepare('SELECT status FROM Capture WHERE url = ? ORDER BY id').pluck().all(`${origin}${url}`);
        const messages = (url: string) => db.prepare('SELECT message FROM CrawlLogEntry WHERE url = ? ORDER BY id').pluck().all(`${origin}${url}`);
        assert.deepEqual(captures('/'), [302, 200], 'the wall, then the page it opens');
        assert.deepEqual(messages('/'), [SELF_REDIRECT_RETAKEN, null]);
        assert.deepEqual(captures('/inner'), [200]);
        assert.deepEqual(captures('/always'), [302, 302]);
        assert.equal(asked.get('/always'), 2);
        assert.equal(db.prepare('SELECT status FROM Crawl').pluck().get(), 'finished');
      } finally {
        db.close();
      }
    });
  });
});

test('a crawl stopped behind the wall and run again keeps its cookies: the page left in flight is fetched with them', { timeout: 90_000 }, async () => {
  // /inner is held until the first run has stopped (Ctrl-C: its fetch goes back to the queue after
  // the grace), then answered at once: the second run asks for it again.
  const asked: { path: string; cookie: string | null }[] = [];
  let innerAsked!: () => void;
  const innerArrived = new Promise<void>((r) => (innerAsked = r));
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const wall = cookieWall([]);
  await withSite((req, res) => {
    asked.push({ path: req.url ?? '', cookie: req.headers.cookie ?? null });
    if (req.url !== '/inner') return wall(req, res);
    innerAsked();
    void released.then(() => wall(req, res));
  }, async (origin) => {
    await withTempDir('tm-cookie-wall-resume-', async (out) => {
      const icdPath = join(out, 'wall.icd.json');
      writeFileSync(icdPath, JSON.stringify({ name: 'Cookie wall', seeds: [`${origin}/`] }));
      const args = ['crawl', icdPath, '--out', join(out, 'crawl'), '--no-politeness', '--json'];
      const first = runCli(args);
      await innerArrived;
      first.child.kill('SIGINT');
      const stopped = await first.done;
      assert.equal(stopped.code, 3, `paused: ${stopped.stderr.slice(-1000)}`);
      assert.equal(JSON.parse(stopped.stdout).outcome, 'paused');
      release();
      const firstRun = asked.length;
      const second = await runCli(args).done;
      assert.equal(second.code, 0, second.stderr.slice(-1000));
      // The first run's cookie, sent from the second run's first request on (robots.txt is not asked
      // again: the first run's answer is kept with the crawl).
      const again = asked.slice(firstRun);
      assert.deepEqual(again, [{ path: '/inner', cookie: 'consent=yes' }]);
      assert.equal(statusesOf(join(out, 'crawl')).get(`${origin}/inner`), 200);
    });
  });
});
