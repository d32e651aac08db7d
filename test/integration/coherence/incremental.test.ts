import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { icdSchema } from '../../../worker/icd/schema';
import { openSqlite, sqlDate } from '../../../worker/store/sqlite';
import { applyMigrations } from '../../../worker/store/migrator';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';

const MINUTE_MS = 300;

/**
 * A site for recrawls and feeds: /stable answers If-None-Match with 304; /changing and the two
 * children of /section change on every request while /section itself never does; /feed.xml
 * lists one article, and a second from a short while after its first poll.
 */
const served: { path: string; at: number; conditional: boolean; status: number }[] = [];
let firstFeedPollAt: number | null = null;
let counter = 0;
const server = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const conditional = Boolean(req.headers['if-none-match']);
  const send = (status: number, body: string, headers: Record<string, string> = {}) => {
    served.push({ path, at: Date.now(), conditional, status });
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
  };
  const html = (title: string, body: string) => `<!doctype html><title>${title}</title><h1>${title}</h1>${body}`;
  switch (path) {
    case '/': return send(200, html('Home', '<a href="/stable">stable</a> <a href="/changing">changing</a> <a href="/section">section</a>'));
    case '/stable':
      if (req.headers['if-none-match'] === '"s1"') return send(304, '', { etag: '"s1"' });
      return send(200, html('Stable', '<p>Tide tables never change.</p>'), { etag: '"s1"' });
    case '/changing': return send(200, html('Changing', `<p>Visitor number ${++counter}.</p>`));
    case '/section': return send(200, html('Section', '<a href="/section/c1">one</a> <a href="/section/c2">two</a>'));
    case '/section/c1':
    case '/section/c2': return send(200, html('Child', `<p>Reading ${++counter}.</p>`));
    case '/feed.xml': {
      firstFeedPollAt ??= Date.now();
      const second = Date.now() - firstFeedPollAt > MINUTE_MS / 2;
      const item = (n: number) => `<item><title>Article ${n}</title><link>${origin}/articles/${n}</link><pubDate>${new Date().toUTCString()}</pubDate></item>`;
      return send(200, `<?xml version="1.0"?><rss version="2.0"><channel><title>Harbour</title>${item(1)}${second ? item(2) : ''}</channel></rss>`, { 'content-type': 'application/rss+xml' });
    }
    case '/articles/1':
    case '/articles/2': return send(200, html(`Article ${path.slice(-1)}`, '<p>News from the quay.</p>'));
    default: return send(404, 'not found');
  }
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
after(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));

test('scheduled recrawls follow fr / fr_max and the parent rule; feed articles are queued and captured', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-incremental-'));
  const db = openSqlite(join(dir, 'state.db'));
  applyMigrations(db, resolve('prisma/migrations'));
  const icd = icdSchema.parse({
    name: 'Incremental harbour',
    seeds: [`${origin}/`],
    politeness: { enabled: false, respectRobots: false, concurrency: 2 },
    aah: { enabled: false },
    coherence: { recrawlIntervalMinutes: 1, feeds: [`${origin}/feed.xml`], minFeedPollMinutes: 1 },
  });
  const now = sqlDate(new Date());
  const icdId = db.prepare('INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES (?, ?, ?, ?)').run(icd.name, JSON.stringify(icd), now, now).lastInsertRowid;
  const crawlId = Number(db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) VALUES (?, ?, ?, 'running', 'run', ?)").run(icdId, JSON.stringify(icd), icd.name, now).lastInsertRowid);
  const events: unknown[] = [];
  const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: MINUTE_MS, onCoherence: (p) => events.push(p) });
  const outcome = engine.run();
  const deadline = Date.now() + 60_000;
  while ((engine.incremental?.rounds.length ?? 0) < 3 && Date.now() < deadline) await sleep(10);
  await engine.stop();
  assert.equal(await outcome, 'stopped', 'a crawl with feeds and recrawls runs until stopped');
  const rounds = engine.incremental!.rounds;
  assert.ok(rounds.length >= 3, 'three recrawl rounds ran');

  const requests = (p: string) => served.filter((s) => s.path === p);
  // Round 1 refetches every page; /stable is unchanged so its frequency halves: round 2 skips it, round 3 refetches it.
  assert.equal(requests('/stable').length, 3, 'visit + rounds 1 and 3');
  // Every refetch sends If-None-Match, the first one too (with the initial capture's ETag, read from its WARC record).
  assert.ok(requests('/stable')[1]!.conditional && requests('/stable')[1]!.status === 304, 'round 1 asks with the stored capture\'s validators');
  assert.ok(requests('/stable')[2]!.conditional && requests('/stable')[2]!.status === 304);
  assert.equal(requests('/changing').length, 4, 'visit + rounds 1, 2 and 3');
  // Rounds 2 and 3: /section is not due (unchanged in round 1) but both its children changed → refetched.
  // (The home page may be refetched by the same rule too, depending on when the feed's second article arrived.)
  assert.ok(rounds[1]!.parentsFetched >= 1 && rounds[2]!.parentsFetched >= 1);
  assert.equal(requests('/section').length, 4, 'visit + rounds 1, 2 and 3');
  assert.ok(rounds[1]!.parentThreshold > rounds[0]!.parentThreshold, 'a wasted parent refetch raises the threshold');

  const revisits = db.prepare("SELECT url, recordType, status FROM Capture WHERE crawlId = ? AND url = ? ORDER BY id").all(crawlId, `${origin}/stable`) as { recordType: string; status: number }[];
  assert.deepEqual(revisits.map((r) => [r.recordType, r.status]), [['response', 200], ['revisit', 304], ['revisit', 304]], 'unchanged payloads became revisit records');

  // Feeds: polled at most once a (shortened) minute; both articles captured, the second after it appeared.
  const polls = requests('/feed.xml');
  assert.ok(polls.length >= 2);
  for (let i = 1; i < polls.length; i++) assert.ok(polls[i]!.at - polls[i - 1]!.at >= MINUTE_MS * 0.9, 'minimum poll interval kept');
  const captured = new Set((db.prepare('SELECT url FROM Capture WHERE crawlId = ?').all(crawlId) as { url: string }[]).map((r) => r.url));
  assert.ok(captured.has(`${origin}/articles/1`) && captured.has(`${origin}/articles/2`));
  assert.ok(events.some((e) => (e as { phase?: string }).phase === 'recrawl'));
  db.close();
});
