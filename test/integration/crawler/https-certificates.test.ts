/**
 * HTTPS sites whose certificate does not verify (self-signed here; expired or for another name
 * alike): by default their fetches fail as `tls`, the crawl log saying which ICD setting archives
 * them anyway; with limits.verifyCertificates false they are captured, as Heritrix's default trust
 * level and Browsertrix do. A CLI crawl of a loopback HTTPS server with the test certificate.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { startFixtureServer, testTlsCredentials, type FixtureServer } from '../../fixtures/servers/fixture-server';
import { runCli } from '../../support/run-cli';
import { withTempDir } from '../../support/temp-dir';

let site: FixtureServer;
before(async () => {
  site = await startFixtureServer({
    '/': (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/tide">tide</a>'),
    '/tide': (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>high water</p>'),
  }, { tls: testTlsCredentials() });
});
after(() => site.close());

/** The crawl log of a CLI crawl of the site with `limits` in its ICD: url path → outcome and message. */
async function crawlLog(limits: Record<string, unknown>): Promise<Map<string, { status: number | null; outcome: string; message: string | null }>> {
  return withTempDir('tm-https-certs-', async (out) => {
    const icd = join(out, 'icd.json');
    writeFileSync(icd, JSON.stringify({ name: 'Self-signed harbour', seeds: [`${site.url}/`], politeness: { enabled: false }, limits: { maxRetries: 0, ...limits } }));
    const run = await runCli(['crawl', icd, '--out', out, '--json']).done;
    assert.equal(run.code, 0, run.stderr);
    const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT url, status, outcome, message FROM CrawlLogEntry ORDER BY id').all() as { url: string; status: number | null; outcome: string; message: string | null }[];
      return new Map(rows.map((r) => [new URL(r.url).pathname, r]));
    } finally {
      db.close();
    }
  });
}

test('a self-signed certificate fails the fetches as tls by default, and the log says which setting archives the site anyway', { timeout: 60_000 }, async () => {
  const log = await crawlLog({});
  const seed = log.get('/');
  assert.equal(seed?.outcome, 'tls');
  assert.match(seed?.message ?? '', /self-signed certificate.*\(the ICD's limits\.verifyCertificates: false archives the site anyway\)/);
  assert.equal(log.has('/tide'), false);
});

test('with limits.verifyCertificates false the site is captured', { timeout: 60_000 }, async () => {
  const log = await crawlLog({ verifyCertificates: false });
  assert.deepEqual([log.get('/')?.status, log.get('/tide')?.status], [200, 200]);
});
