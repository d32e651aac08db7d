/**
 * A seed on a host that gives no answer (no connection, or a server that never sends a byte), crawled
 * beside a live seed with the real CLI: the dead seed fails unrequested with the reason, and the live
 * one is captured (no-connection-seed and silent-host-seed tests).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import Database from 'better-sqlite3';
import { runCli } from './run-cli';
import { withSite } from './site-crawl';
import { withTempDir } from './temp-dir';

/** The live site crawled beside the dead seed: a robots.txt allowing all and one page. */
const site: RequestListener = (req, res) => {
  if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow:\n');
  if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>home</title>');
  res.writeHead(404).end();
};

/**
 * Crawls `dead` beside the live site's seed with the CLI (`args` gives the crawl's arguments but
 * `--out` and `--json`) and checks that `dead` failed with `reason`, unrequested (no retries, no
 * time), with its robots.txt requested three times at each try (the ICD's default maxRetries, 2, on
 * its entry), its crawl-log entry matching `logMessage`, each try of robots.txt logged with `reason`
 * too, nothing excluded, and the live seed captured.
 * Returns the crawl-log message and how long the crawl took. `env`: added to the CLI's environment.
 */
export async function crawlDeadSeed(dead: string, reason: string, logMessage: RegExp, args: (origin: string, out: string) => string[], then: (o: { origin: string; out: string; message: string; tookMs: number }) => Promise<void>, env?: Record<string, string>): Promise<void> {
  await withSite(site, async (origin) => {
    await withTempDir('tm-dead-seed-', async (out) => {
      const started = Date.now();
      const run = await runCli([...args(origin, out), '--out', out, '--json'], { env }).done;
      const tookMs = Date.now() - started;
      assert.equal(run.code, 0, run.stderr.slice(-1000));
      const summary = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
        outcome: string; failuresByReason: Record<string, number>; excludedByReason: Record<string, number>; seedProblems: { seed: string; outcome: string }[];
      };
      assert.equal(summary.outcome, 'finished');
      assert.deepEqual(summary.failuresByReason, { [reason]: 1 });
      assert.deepEqual(summary.excludedByReason, {}, 'nothing excluded: the host was never reached');
      assert.deepEqual(summary.seedProblems, [{ seed: dead, outcome: `failed: ${reason}` }]);

      const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
      let message: string;
      try {
        type Row = { url: string; outcome: string; status: number | null; message: string; retries: number; durationMs: number };
        const entries = db.prepare('SELECT url, outcome, status, message, retries, durationMs FROM CrawlLogEntry WHERE url LIKE ? ORDER BY id').all(`${dead}%`) as Row[];
        // Each robots.txt request that got nothing has its entry, with the reason (not counted as a failure: above).
        const robots = entries.filter((e) => e.url === new URL('/robots.txt', dead).href);
        assert.ok(robots.length >= 1, JSON.stringify(entries));
        for (const entry of robots) {
          assert.deepEqual([entry.outcome, entry.status], [reason, null]);
          assert.match(entry.message, /^robots\.txt request got no answer \(/);
        }
        const log = entries.filter((e) => !robots.includes(e));
        assert.equal(log.length, 1, JSON.stringify(entries));
        assert.equal(log[0]!.url, dead);
        assert.equal(log[0]!.outcome, reason);
        assert.equal(log[0]!.status, null);
        assert.match(log[0]!.message, logMessage);
        // The ICD's default maxRetries (2): three requests at robots.txt's last try, logged on its entry;
        // the page, not requested at all, has no retries or time of its own.
        assert.equal(robots.at(-1)!.retries, 2);
        assert.deepEqual([log[0]!.retries, log[0]!.durationMs], [0, 0]);
        message = log[0]!.message;
        assert.equal(db.prepare('SELECT reason FROM frontier_url WHERE url = ?').pluck().get(dead), reason);
        assert.deepEqual(db.prepare('SELECT url FROM Capture WHERE status = 200 ORDER BY url').pluck().all(), [`${origin}/`, `${origin}/robots.txt`]);
      } finally {
        db.close();
      }
      await then({ origin, out, message, tookMs });
    });
  });
}

/** The CLI's human summary of a finished crawl (run again on its --out) names the failure and the seed, and no exclusion. */
export async function assertHumanSummary(args: string[], out: string, dead: string, reason: string): Promise<void> {
  const human = await runCli([...args, '--out', out]).done;
  assert.equal(human.code, 0, human.stderr.slice(-1000));
  assert.match(human.stdout, new RegExp(`failures: ${reason} 1`));
  assert.match(human.stdout, new RegExp(`seed ${dead.replace(/[.]/g, '\\.')}: failed: ${reason}\\n`));
  assert.doesNotMatch(human.stdout, /excluded:/);
}
