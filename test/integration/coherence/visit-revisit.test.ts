import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runCli } from '../../support/run-cli';
import { startChangingSite, groundTruth } from './changing-site';
import type { CoherenceCertificate, TreeNode } from '../../../worker/coherence';
import { coherenceGraphml, coherencePageDetail, coherenceReport } from '../../../worker/coherence/coherence-report';
import { wholeTree } from '../../support/coherence-tree';
import { createPrismaClient } from '../../../worker/store/prisma';

const site = await startChangingSite();
after(() => site.close());

test('a visit–revisit crawl reports the coherence, per-page status and certificate the site\'s changes imply', async () => {
  const out = mkdtempSync(join(tmpdir(), 'tm-coherence-'));
  const icdPath = join(out, 'icd.json');
  writeFileSync(icdPath, JSON.stringify({
    name: 'Changing harbour site',
    seeds: [`${site.origin}/`],
    politeness: { minDelayMs: 30, maxDelayMs: 200, concurrency: 1, respectRobots: false },
    aah: { enabled: false },
    coherence: { mode: 'visit-revisit' },
  }));
  const run = await runCli(['crawl', icdPath, '--out', out, '--json']).done;
  assert.equal(run.code, 0, `crawl finished (stderr: ${run.stderr.slice(-2000)})`);

  const truth = groundTruth(site);
  // Every page of the site was visited and revisited, and the timer fired in between.
  assert.deepEqual([...truth.keys()].sort(), Object.keys(site.pages).map((p) => `${site.origin}${p}`).sort());
  assert.ok(site.changedAt !== null);
  const kinds = new Set(truth.values());
  for (const k of ['unchanged', 'content-changed', 'links-changed', 'missing'] as const) assert.ok(kinds.has(k), `the fixture produced a ${k} page`);

  const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
  const rows = db.prepare('SELECT url, status, evidence FROM CoherencePage').all() as { url: string; status: string; evidence: string }[];
  const reported = new Map(rows.map((r) => [r.url, r.status]));
  assert.deepEqual(Object.fromEntries([...reported].sort()), Object.fromEntries([...truth].sort()));
  // The clock page's payload changed on every response: its text digest proved it unchanged.
  assert.equal(rows.find((r) => r.url.endsWith('/clock'))!.evidence, 'main-text-digest');
  // The ETag page was revisited with If-None-Match and archived as a server-not-modified revisit.
  assert.ok(site.served.some((s) => s.path === '/etag' && s.status === 304 && s.conditional));
  const etagCaptures = db.prepare("SELECT recordType, status FROM Capture WHERE url = ? ORDER BY id").all(`${site.origin}/etag`) as { recordType: string; status: number }[];
  assert.deepEqual(etagCaptures, [{ recordType: 'response', status: 200 }, { recordType: 'revisit', status: 304 }]);
  // Unchanged payloads became identical-payload revisit records.
  const about = db.prepare("SELECT recordType FROM Capture WHERE url = ? ORDER BY id").all(`${site.origin}/about`) as { recordType: string }[];
  assert.deepEqual(about.map((r) => r.recordType), ['response', 'revisit']);

  const unchanged = [...truth].filter(([, s]) => s === 'unchanged').map(([u]) => u).sort();
  const run2 = db.prepare('SELECT summary, referenceTime FROM CoherenceRun').get() as { summary: string; referenceTime: string };
  const summary = JSON.parse(run2.summary);
  assert.equal(summary.coherence, unchanged.length / truth.size);
  assert.equal(summary.pages, truth.size);

  const certificate = JSON.parse(readFileSync(join(out, 'coherence-certificate.json'), 'utf8')) as CoherenceCertificate;
  assert.deepEqual(certificate.unchanged.map((p) => p.url), unchanged);
  assert.equal(certificate.summary.coherence, summary.coherence);
  const reference = Date.parse(certificate.referenceTime);
  for (const p of certificate.unchanged) {
    assert.ok(Date.parse(p.visitedAt) <= reference && reference <= Date.parse(p.revisitedAt), `${p.url}: reference time inside its interval`);
    const visit = db.prepare("SELECT payloadDigest FROM Capture WHERE url = ? ORDER BY id LIMIT 1").get(p.url) as { payloadDigest: string };
    assert.equal(p.payloadDigest, visit.payloadDigest);
  }
  assert.deepEqual(certificate.notCertified.map((p) => [p.url, p.status]), [...truth].filter(([, s]) => s !== 'unchanged').sort(([a], [b]) => (a < b ? -1 : 1)));
  // Each entry says what decided it, as the page's row does.
  const evidence = new Map(rows.map((r) => [r.url, r.evidence]));
  for (const p of [...certificate.unchanged, ...certificate.notCertified]) assert.equal(p.evidence, evidence.get(p.url), `${p.url}: evidence`);
  assert.equal(certificate.unchanged.find((p) => p.url.endsWith('/clock'))!.evidence, 'main-text-digest');
  db.close();

  // The cockpit's read side over the same database.
  const prisma = createPrismaClient(join(out, 'tidemark-state.db'));
  const reader = new Database(join(out, 'tidemark-state.db'), { readonly: true });
  try {
    const crawlId = 1;
    const report = coherenceReport(reader, crawlId, out);
    assert.equal(report.certificateAvailable, true);
    assert.equal(report.summary!.coherence, summary.coherence);
    const tree = wholeTree(reader, crawlId);
    assert.equal(tree.length, 1, 'one root: the seed');
    const flat: TreeNode[] = [];
    const walk = (n: TreeNode) => { flat.push(n); n.children.forEach(walk); };
    tree.forEach(walk);
    assert.deepEqual(Object.fromEntries(flat.map((n) => [n.url, n.status]).sort()), Object.fromEntries([...truth].sort()));
    assert.equal(tree[0]!.coherentBelow, unchanged.length);
    const menu = await coherencePageDetail(prisma, crawlId, { url: `${site.origin}/menu` });
    assert.deepEqual(menu!.linksAdded, [`${site.origin}/new-page`]);
    const news = await coherencePageDetail(prisma, crawlId, { url: `${site.origin}/news` });
    assert.ok(news!.diff.some((d) => d.kind === 'added' && d.text.includes('sea wall')));
    const graphml = coherenceGraphml(reader, crawlId);
    assert.equal((graphml.match(/<node /g) ?? []).length, truth.size);
  } finally {
    reader.close();
    await prisma.$disconnect();
  }
});
