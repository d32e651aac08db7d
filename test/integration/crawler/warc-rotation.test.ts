/**
 * Crash safety across WARC file rotation. A rotated file used to be renamed `.warc.gz` as soon as
 * the next file started, while the last captures written into it could still wait for their commit:
 * a crash or a refused commit then left captures the database never acknowledged in a closed file,
 * which the next start does not cut; those pages were fetched again and archived twice.
 * rotateBytes is the ICD's smallest (1 MiB), so the pages are big and incompressible.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { icdSchema } from '../../../worker/icd/schema';
import { openSqlite } from '../../../worker/store/sqlite';
import { applyMigrations } from '../../../worker/store/migrator';
import { parseCdxjLine, verifyCdxj, verifyWarcFile } from '../../../worker/warc';
import { runCli } from '../../support/run-cli';
import { insertCrawl } from '../../support/crawl-rows';

const MiB = 1024 * 1024;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * Every WARC file of `dir` reads whole with valid digests, the index's every line points at its
 * record, and each URL has one response or revisit record and one index line across all files.
 */
async function assertArchivedOnce(dir: string, expected: string[]): Promise<void> {
  const names = readdirSync(dir);
  assert.deepEqual(names.filter((n) => n.endsWith('.open')), [], 'no file left open');
  const records = new Map<string, number>();
  for (const name of names.filter((n) => n.endsWith('.warc.gz'))) {
    const v = await verifyWarcFile(join(dir, name));
    assert.deepEqual(v.errors, [], name);
  }
  const index = await verifyCdxj(join(dir, 'index.cdxj'), dir);
  assert.deepEqual(index.errors, [], 'every index line points at its record');
  for (const line of readFileSync(join(dir, 'index.cdxj'), 'utf8').split('\n').filter(Boolean)) {
    const url = parseCdxjLine(line)!.json.url;
    records.set(url, (records.get(url) ?? 0) + 1);
  }
  const twice = [...records].filter(([, n]) => n > 1).map(([url, n]) => `${url} ×${n}`);
  assert.deepEqual(twice, [], 'no URL archived twice');
  assert.deepEqual([...records.keys()].sort(), [...expected].sort(), 'every URL archived');
  // The index is rebuilt from the files on recovery; count the records themselves too.
  let responses = 0;
  for (const name of names.filter((n) => n.endsWith('.warc.gz'))) {
    const { types } = await verifyWarcFile(join(dir, name));
    responses += (types.response ?? 0) + (types.revisit ?? 0);
  }
  assert.equal(responses, expected.length, 'one response or revisit record per URL in the WARC files');
}

test('a commit refused for the last capture of a file that then rotates: the next start cuts it, and the page is archived once', { timeout: 120_000 }, async () => {
  const SMALL = 5;
  // /big fills the first file past rotateBytes and its 1,500 links do not fit in the database; the
  // small pages answer once its commit was refused, and the first of them to be written starts the
  // next file, closing the first. (Over LINKS_COMMITTED_AHEAD_ABOVE links, the links would be
  // refused before /big is written, by the schedule stage: schedule-stage.ts.)
  const bigBody = `<html><body>${Array.from({ length: 1500 }, (_, i) => `<a href="/x/${i}/${'q'.repeat(200)}">x</a>`).join('')}<p>${randomBytes(1.2 * MiB).toString('base64')}</p></body></html>`;
  const site = createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    if (req.url === '/') res.end(`<a href="/big">big</a> ${Array.from({ length: SMALL }, (_, i) => `<a href="/s/${i}">s</a>`).join(' ')}`);
    else if (req.url === '/big') res.end(bigBody);
    else if (req.url?.startsWith('/s/')) setTimeout(() => res.end(`<p>small ${req.url}</p>`), 400);
    else res.writeHead(404).end();
  });
  const origin = await listen(site);
  const dir = mkdtempSync(join(tmpdir(), 'tm-rotate-refused-'));
  const warcDir = join(dir, 'warcs');
  const db = openSqlite(join(dir, 'state.db'));
  try {
    applyMigrations(db, resolve('prisma/migrations'));
    const icd = icdSchema.parse({
      name: 'Refused at rotation', seeds: [`${origin}/`], scope: { maxDepth: 1, includeFavicon: false },
      politeness: { enabled: false, concurrency: 8, respectRobots: false }, warc: { rotateBytes: MiB },
    });
    const crawlId = insertCrawl(db, icd);
    const engine = () => new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool'), kbPath: resolve('knowledge-base/default.xml') });
    // Room for the small pages' rows, not for /big's 1,500 links.
    db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + 40}`);
    assert.equal(await engine().run(), 'paused');
    assert.equal(db.prepare('SELECT COUNT(*) FROM Capture WHERE url = ?').pluck().get(`${origin}/big`), 0, '/big was refused');
    assert.ok(readdirSync(warcDir).filter((n) => /\.warc\.gz(\.open)?$/.test(n)).length >= 2, 'the first file was rotated');

    db.pragma('max_page_count = 1073741823');
    assert.equal(await engine().run(), 'finished');
    const urls = db.prepare('SELECT url FROM Capture WHERE crawlId = ?').pluck().all(crawlId) as string[];
    const expected = [`${origin}/`, `${origin}/big`, ...Array.from({ length: SMALL }, (_, i) => `${origin}/s/${i}`)];
    assert.deepEqual([...urls].sort(), [...expected].sort(), 'every page stored once');
    await assertArchivedOnce(warcDir, expected);
  } finally {
    db.close();
    site.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('SIGKILL the CLI at random moments of a crawl whose files rotate every other page, then let it finish: every page archived once', { timeout: 300_000 }, async () => {
  const PAGES = 40;
  // ~600 KB of incompressible text each (base64 of random bytes gzips to ~3/4): a file holds two.
  const bodies = Array.from({ length: PAGES }, (_, i) =>
    `<html><body>${[1, 2, 3].map((k) => `<a href="/p/${(i + k) % PAGES}">next</a>`).join(' ')}<p>${randomBytes(450_000).toString('base64')}</p></body></html>`);
  let requests = 0;
  const site = createServer((req, res) => {
    const m = /^\/p\/(\d+)$/.exec(req.url ?? '');
    if (!m || Number(m[1]) >= PAGES) return void res.writeHead(404).end();
    requests++;
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(bodies[Number(m[1])]), 10);
  });
  const origin = await listen(site);
  const out = mkdtempSync(join(tmpdir(), 'tm-rotate-kill-'));
  const icdPath = join(out, '..', `${out.split('/').pop()}-icd.json`);
  writeFileSync(icdPath, JSON.stringify({ name: 'Rotating', seeds: [`${origin}/p/0`], scope: { includeFavicon: false }, politeness: { enabled: false, concurrency: 4, respectRobots: false }, warc: { rotateBytes: MiB } }));
  const args = ['crawl', icdPath, '--out', out, '--json'];
  try {
    let kills = 0;
    for (let attempt = 0; attempt < 14 && kills < 10; attempt++) {
      const run = runCli(args);
      // Two runs in three are killed as soon as a file is closed, by a rotation (the moment at risk)
      // or by the recovery of the files a kill left open; the others after a random number of this
      // run's fetches, a random few milliseconds later.
      const from = requests;
      const after = 1 + Math.floor(Math.random() * 6);
      const closedBefore = new Set(readdirSync(out).filter((n) => n.endsWith('.warc.gz')));
      const atRotation = attempt % 3 !== 2;
      let exited = false;
      void run.done.then(() => (exited = true));
      const due = () => atRotation ? readdirSync(out).some((n) => n.endsWith('.warc.gz') && !closedBefore.has(n)) : requests - from >= after;
      const watcher = watch(out, () => due() && run.child.kill('SIGKILL'));
      while (!exited && !due()) await new Promise((r) => setTimeout(r, 2));
      watcher.close();
      if (!atRotation) await new Promise((r) => setTimeout(r, Math.random() * 30));
      run.child.kill('SIGKILL');
      const end = await run.done;
      if (end.signal === 'SIGKILL') kills++;
      else if (end.code === 0) break;
      else assert.fail(`exit ${end.code}: ${end.stderr.slice(-1000)}`);
    }
    assert.ok(kills >= 4, `killed mid-crawl ${kills} times`);
    const last = await runCli(args).done;
    assert.equal(last.code, 0, last.stderr.slice(-1000));
    assert.equal(JSON.parse(last.stdout.trim().split('\n').pop()!).outcome, 'finished');

    const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
    const urls = db.prepare('SELECT url FROM Capture').pluck().all() as string[];
    db.close();
    const expected = Array.from({ length: PAGES }, (_, i) => `${origin}/p/${i}`);
    assert.deepEqual([...urls].sort(), [...expected].sort(), 'every page stored once');
    await assertArchivedOnce(out, expected);
  } finally {
    site.close();
    rmSync(out, { recursive: true, force: true });
    rmSync(icdPath, { force: true });
  }
});
