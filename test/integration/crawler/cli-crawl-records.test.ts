/**
 * What a CLI crawl leaves beside its WARC files: crawl-log.tsv (the whole crawl log, rewritten at
 * the end of each run) and, in its summary, the seeds that did not end on a capture. A loopback
 * site whose seeds go wrong in three ways; the real CLI.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import Database from 'better-sqlite3';
import { runCli } from '../../support/run-cli';
import { withSite } from '../../support/site-crawl';
import { withTempDir } from '../../support/temp-dir';

const site: RequestListener = (req, res) => {
  if (req.url === '/robots.txt') return void res.writeHead(404).end();
  if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>home</title><a href="/a">a</a>');
  if (req.url === '/a') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>a</title>');
  if (req.url?.startsWith('/ok/')) return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>ok</title>');
  if (req.url === '/away') return void res.writeHead(301, { location: 'http://elsewhere.invalid/' }).end();
  res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>gone</title>');
};

test('a CLI crawl writes its crawl log as a file and names the seeds that went wrong', { timeout: 90_000 }, async () => {
  await withSite(site, async (origin) => {
    await withTempDir('tm-cli-records-', async (out) => {
      const seeds = ['/', '/away', '/gone'].flatMap((p) => ['--seed', `${origin}${p}`]);
      const json = await runCli(['crawl', ...seeds, '--out', out, '--no-politeness', '--json']).done;
      assert.equal(json.code, 0, json.stderr.slice(-1000));
      const summary = JSON.parse(json.stdout.trim().split('\n').at(-1)!) as { seedProblems: { seed: string; outcome: string }[]; crawlLog: string };
      assert.deepEqual(summary.seedProblems, [
        { seed: `${origin}/away`, outcome: '301 → http://elsewhere.invalid/: not followed: out-of-scope-host' },
        { seed: `${origin}/gone`, outcome: '404' },
      ]);
      assert.equal(summary.crawlLog, join(out, 'crawl-log.tsv'));

      const logged = () => {
        const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
        const rows = db.prepare('SELECT url, outcome FROM CrawlLogEntry ORDER BY id').all() as { url: string; outcome: string }[];
        db.close();
        return rows.map((r) => [r.url, r.outcome]);
      };
      const fileRows = () => readFileSync(join(out, 'crawl-log.tsv'), 'utf8').trimEnd().split('\n').slice(1).map((l) => l.split('\t')).map((f) => [f[6], f[2]]);
      assert.deepEqual(fileRows(), logged());
      assert.ok(fileRows().some(([url]) => url === `${origin}/a`), 'the pages found from the seeds are in it');

      // Run again (nothing left to fetch): the file is written again, whole, and the human summary names the seeds.
      const human = await runCli(['crawl', ...seeds, '--out', out, '--no-politeness']).done;
      assert.equal(human.code, 0, human.stderr.slice(-1000));
      assert.match(human.stdout, new RegExp(`seed ${origin}/away: 301 → http://elsewhere\\.invalid/: not followed: out-of-scope-host`));
      assert.match(human.stdout, new RegExp(`seed ${origin}/gone: 404\\n`));
      assert.match(human.stdout, /WARC files, index\.cdxj and crawl-log\.tsv in /);
      assert.deepEqual(fileRows(), logged());
    });
  });
});

test('the summary names a failing seed after the 200th, and at most 200 of them with a count of the rest', { timeout: 120_000 }, async () => {
  await withSite(site, async (origin) => {
    const crawl = async (out: string, seeds: string[]) => {
      const icdFile = join(out, 'seeds.json');
      writeFileSync(icdFile, JSON.stringify({ name: 'many seeds', seeds }));
      const run = await runCli(['crawl', icdFile, '--out', out, '--no-politeness', '--json']).done;
      assert.equal(run.code, 0, run.stderr.slice(-1000));
      return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { seedProblems: { seed: string; outcome: string }[]; seedProblemsNotListed?: number };
    };
    await withTempDir('tm-cli-seeds-201-', async (out) => {
      // The 201st seed was never looked at: seedProblems was [], "every seed was captured or waits".
      const summary = await crawl(out, [...Array.from({ length: 200 }, (_, i) => `${origin}/ok/${i}`), `${origin}/gone`]);
      assert.deepEqual(summary.seedProblems, [{ seed: `${origin}/gone`, outcome: '404' }]);
      assert.equal(summary.seedProblemsNotListed, undefined);
    });
    await withTempDir('tm-cli-seeds-cap-', async (out) => {
      const gone = Array.from({ length: 203 }, (_, i) => `${origin}/gone/${i}`);
      const summary = await crawl(out, [`${origin}/ok/x`, ...gone]);
      assert.deepEqual(summary.seedProblems.map((p) => p.seed), gone.slice(0, 200));
      assert.equal(summary.seedProblemsNotListed, 3);
    });
  });
});
