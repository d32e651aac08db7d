/**
 * A visit–revisit crawl that visits no HTML page (its seed answers 404) still writes its coherence
 * certificate. It said coherence 1 and blur 0, a perfect capture of nothing, while the cockpit shows
 * "—"; it now says null for both, with the reason. Real parts: the CLI as a child process, a loopback
 * HTTP server, the certificate file and the crawl's SQLite database.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runCli } from '../../support/run-cli';
import { withTempDir } from '../../support/temp-dir';
import type { CoherenceCertificate } from '../../../worker/coherence';

test('the certificate of a visit–revisit run over no page says null coherence and blur, and why', { timeout: 60_000 }, async () => {
  const server = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<p>not here</p>'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await withTempDir('tm-empty-certificate-', async (out) => {
      const icdPath = join(out, 'icd.json');
      writeFileSync(icdPath, JSON.stringify({
        name: 'Nothing to revisit', seeds: [`${origin}/`], politeness: { enabled: false }, aah: { enabled: false }, coherence: { mode: 'visit-revisit' },
      }));
      const run = await runCli(['crawl', icdPath, '--out', out, '--json']).done;
      assert.equal(run.code, 0, run.stderr);
      const certificate = JSON.parse(readFileSync(join(out, 'coherence-certificate.json'), 'utf8')) as CoherenceCertificate;
      assert.equal(certificate.summary.pages, 0);
      assert.equal(certificate.summary.coherence, null);
      assert.equal(certificate.summary.blur, null);
      assert.deepEqual(certificate.summary.unmeasured, { coherence: 'no page was visited and revisited', blur: 'no page was visited and revisited' });
      assert.deepEqual([certificate.unchanged, certificate.notCertified], [[], []]);
      // The run's stored summary, which the cockpit's coherence view reads, says the same.
      const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
      try {
        const stored = JSON.parse(db.prepare('SELECT summary FROM CoherenceRun').pluck().get() as string) as CoherenceCertificate['summary'];
        assert.deepEqual(stored, certificate.summary);
      } finally {
        db.close();
      }
    });
  } finally {
    server.close();
  }
});
