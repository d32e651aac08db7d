import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runCli } from '../../support/run-cli';
import { startFixtureSite } from '../../support/fixture-site';

/**
 * Three on-topic pages, each about one of the topic's three terms, all link /t; only the glacier
 * page links /u; an off-topic page links /v. The index links the four. Summed over a batch, the
 * evidence for /t covers the whole topic; each single link sees a third of it.
 */
const FILLER = 'report notes page text about the subject with several plain words';
const PAGES: Record<string, { text: string; links: string[] }> = {
  '/': { text: 'index of pages', links: ['/r/glacier', '/r/ice', '/r/melt', '/off'] },
  '/r/glacier': { text: 'glacier glacier glaciers glacier valley', links: ['/t', '/u'] },
  '/r/ice': { text: 'ice ice sheet ice shelf ice', links: ['/t'] },
  '/r/melt': { text: 'melt melting melt water melt', links: ['/t'] },
  '/off': { text: 'football league match goal referee', links: ['/v'] },
  '/t': { text: 'target page', links: [] },
  '/u': { text: 'another page', links: [] },
  '/v': { text: 'last page', links: [] },
};

async function startSite() {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    const page = PAGES[path];
    if (!page) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const links = page.links.map((l) => `<p>${page.text} <a href="${l}">more</a></p>`).join('');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><html><body><main><h1>${page.text}</h1><p>${page.text} ${FILLER}</p>${links}</main></body></html>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, requests, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

interface Row { url: string; state: number; precedence: number; score_count: number; breakdown: string | null }

async function crawl(batch: boolean, resume: boolean) {
  const site = await startSite();
  const out = mkdtempSync(join(tmpdir(), 'tm-batch-'));
  const icdPath = join(out, 'icd.json');
  writeFileSync(icdPath, JSON.stringify({
    name: 'Batch',
    seeds: [`${site.origin}/`],
    // The page budget is the batch's: the site's icon would take one of its five.
    scope: { maxPages: 5, includeFavicon: false },
    politeness: { minDelayMs: 0, maxDelayMs: 0, delayFactor: 0, concurrency: 1 },
    focus: {
      enabled: true,
      language: 'eng', // the pages are short and repetitive: no guessing
      keywords: [{ term: 'glacier', weight: 1 }, { term: 'ice', weight: 1 }, { term: 'melt', weight: 1 }],
      updateFunction: 'AVG',
      batch: { enabled: batch, bl: 5 },
    },
  }));
  const readDb = () => {
    const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT url, state, precedence, score_count, breakdown FROM frontier_url').all() as Row[];
      // robots.txt is archived too, once per run: pages only.
      const captures = (db.prepare('SELECT url, score FROM Capture ORDER BY id').all() as { url: string; score: number }[])
        .filter((c) => !c.url.endsWith('/robots.txt'));
      const byPath = new Map(rows.map((r) => [new URL(r.url).pathname, r]));
      return { row: (p: string) => byPath.get(p)!, captures: captures.map((c) => ({ path: new URL(c.url).pathname, score: c.score })) };
    } finally {
      db.close();
    }
  };
  try {
    // The index, then the four pages it links (one host batch of up to bl = 5): /t, /u and /v wait in the queue.
    const first = await runCli(['crawl', icdPath, '--out', out, '--json']).done;
    assert.equal(first.code, 0, first.stderr);
    const afterFirst = readDb();
    if (!resume) return { afterFirst, afterSecond: afterFirst, requests: site.requests };
    // Resumed with a larger budget: the three waiting pages are fetched, in the order of their scores.
    const second = await runCli(['crawl', icdPath, '--out', out, '--json', '--max-pages', '8']).done;
    assert.equal(second.code, 0, second.stderr);
    return { afterFirst, afterSecond: readDb(), requests: site.requests.filter((p) => p !== '/robots.txt') };
  } finally {
    await site.close();
  }
}

test('batch prioritisation rescores the links of a batch from its summed evidence; every page is captured once', { timeout: 120_000 }, async () => {
  const batch = await crawl(true, true);
  const single = await crawl(false, false);
  const { row } = batch.afterFirst;
  for (const p of ['/t', '/u', '/v']) {
    const r = row(p);
    assert.equal(r.state, 0, `${p} is still queued after the first run`);
    // The provisional score (count 0) was replaced by the batch's, not averaged with it.
    assert.equal(r.score_count, 1, `${p}: one score, the batch's`);
  }
  const why = JSON.parse(row('/t').breakdown!);
  assert.deepEqual(why.batch, { inLinks: 3, pages: 5 }, 'one batch held all five pages');
  assert.deepEqual(JSON.parse(row('/u').breakdown!).batch, { inLinks: 1, pages: 5 });
  assert.ok(why.scores.text > 0 && why.weights.text > 0, 'the cockpit can explain the score');

  const t = row('/t').precedence;
  const u = row('/u').precedence;
  const v = row('/v').precedence;
  const tSingle = single.afterFirst.row('/t').precedence;
  const uSingle = single.afterFirst.row('/u').precedence;
  assert.ok(t > u && u > v, `linked from three on-topic pages beats one, which beats an off-topic one: t ${t}, u ${u}, v ${v}`);
  // Without batches /t is scored link by link (each on-topic page covers a third of the topic).
  assert.ok(t > tSingle + 0.1, `the summed evidence raised /t above its single-link scores: ${t} vs ${tSingle}`);
  assert.ok(Math.abs(u - uSingle) < 0.05, `one source: the batch score is about the single-link one (${u} vs ${uSingle})`);

  // The resumed run fetched the waiting pages by their batch scores, and stored those scores.
  const captures = batch.afterSecond.captures;
  assert.deepEqual(captures.slice(5).map((c) => c.path), ['/t', '/u', '/v']);
  assert.ok(Math.abs(captures[5]!.score - t) < 1e-9, 'Capture.score is the batch precedence');
  // Every page once: in the archive's index and on the wire.
  const paths = Object.keys(PAGES).sort();
  assert.deepEqual(captures.map((c) => c.path).sort(), paths);
  assert.deepEqual([...batch.requests].sort(), paths);
});

test('batch mode stays polite: the URLs of a host batch are fetched one at a time, each after the delay', { timeout: 120_000 }, async () => {
  const DELAY_MS = 150;
  const site = await startFixtureSite({ pageCount: 12, delayMs: 20 });
  const out = mkdtempSync(join(tmpdir(), 'tm-batch-polite-'));
  const icdPath = join(out, 'icd.json');
  writeFileSync(icdPath, JSON.stringify({
    name: 'Batch polite',
    seeds: [`${site.origin}/`],
    scope: { includeFavicon: false },
    // Four slots, one host: a batch of three holds the host, the other slots stay idle.
    politeness: { minDelayMs: DELAY_MS, maxDelayMs: 5000, delayFactor: 0, concurrency: 4 },
    focus: { enabled: true, language: 'eng', keywords: [{ term: 'tides', weight: 1 }], batch: { enabled: true, bl: 3 } },
  }));
  try {
    const run = await runCli(['crawl', icdPath, '--out', out, '--json']).done;
    assert.equal(run.code, 0, run.stderr);
    const seen = site.requests.filter((r) => r.path !== '/robots.txt').map((r) => r.path);
    // The site's 12 pages plus /page/0.html (a link to page 0 under another URL).
    assert.equal(new Set(seen).size, 13, `every page: ${seen.join(' ')}`);
    assert.equal(seen.length, 13, 'each fetched once');
    const sorted = [...site.requests].sort((a, b) => a.at - b.at);
    for (let i = 1; i < sorted.length; i++) {
      const previous = sorted[i - 1]!;
      const current = sorted[i]!;
      assert.ok(previous.end !== undefined && previous.end <= current.at, `never two in flight: ${previous.path} and ${current.path}`);
      // Start to start: the server's own clock, no slack needed for when its 'finish' event fires.
      assert.ok(current.at - previous.at >= DELAY_MS, `${current.at - previous.at} ms between the starts of ${previous.path} and ${current.path}`);
    }
    const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
    try {
      const captured = db.prepare("SELECT COUNT(*) AS n, COUNT(DISTINCT url) AS d FROM Capture WHERE url NOT LIKE '%/robots.txt'").get() as { n: number; d: number };
      assert.deepEqual(captured, { n: 13, d: 13 });
    } finally {
      db.close();
    }
  } finally {
    await site.close();
  }
});
