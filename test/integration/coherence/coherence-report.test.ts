/**
 * The coherence report over a real SQLite database (made by the migrator, written by the crawl's
 * CoherenceStore): what it reads and what it says.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openSqlite } from '../../../worker/store/sqlite';
import { applyMigrations } from '../../../worker/store/migrator';
import { CoherenceStore } from '../../../worker/crawler/coherence-store';
import { CERTIFICATE_NAME, coherenceReport, coherenceVersion, PAGE_ROWS_SQL, TREE_PAGE_SQL } from '../../../worker/coherence/coherence-report';
import { wholeTree } from '../../support/coherence-tree';
import type { CoherenceSummary, PageFingerprint } from '../../../worker/coherence';

function database() {
  const db = openSqlite(':memory:');
  applyMigrations(db, resolve('prisma/migrations'));
  return db;
}

const fingerprint = (text: string): PageFingerprint => ({
  status: 200, etag: null, lastModified: null, payloadDigest: 'sha1:X', textDigest: text, sketch: [1, 2, 3], outLinks: [], contentTimestamp: null, fetchedAt: Date.parse('2026-11-25T08:00:00Z'),
});

/** A capture of a seed and `children` pages under it, the first `revisited` of all revisited unchanged. */
function capture(db: ReturnType<typeof database>, crawlId: number, children: number, revisited: number): CoherenceStore {
  const store = new CoherenceStore(db, crawlId);
  const urls = ['http://quay.test/', ...Array.from({ length: children }, (_, i) => `http://quay.test/p${i}`)];
  for (const url of urls) store.recordVisit({ url, parentUrl: url.endsWith('/') ? null : 'http://quay.test/', depth: url.endsWith('/') ? 0 : 1, mime: 'text/html', fingerprint: fingerprint(url), text: 'words '.repeat(2_000) });
  store.startRun(Date.parse('2026-11-25T09:00:00Z'));
  for (const url of urls.slice(0, revisited)) {
    store.recordRevisit(url, { at: Date.parse('2026-11-25T10:00:00Z'), fingerprint: fingerprint(url), text: 'words', changeRate: 0.5,
      verdict: { status: 'unchanged', evidence: 'payload-digest', similarity: 1, linksAdded: [], linksRemoved: [], validatorsInconsistent: false } });
  }
  return store;
}

test('the report and the tree\'s pages read the pages from the tree index only, never the rows with their texts', () => {
  const db = database();
  for (const [sql, args] of [[PAGE_ROWS_SQL, [1]], [TREE_PAGE_SQL, [1, 0, 1000]]] as const) {
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail).join('; ');
    assert.match(plan, /USING COVERING INDEX CoherencePage_tree_idx/);
    assert.doesNotMatch(plan, /TEMP B-TREE/, 'in visit order without a sort');
  }
  capture(db, 1, 30, 11);
  capture(db, 2, 5, 0);
  const report = coherenceReport(db, 1, '/nonexistent');
  assert.equal(report.pages, 31);
  assert.equal(report.revisited, 11);
  const tree = wholeTree(db, 1);
  assert.equal(tree.length, 1);
  assert.equal(tree[0]!.children.length, 30);
  assert.equal(tree[0]!.coherentBelow, 11);
  assert.equal(report.histogram.reduce((s, b) => s + b.count, 0), 11);
  assert.deepEqual(report.run, { referenceTime: '2026-11-25T09:00:00.000Z', startedAt: report.run!.startedAt, finishedAt: null });
  assert.equal(report.certificateAvailable, false);
  db.close();
});

test('the report\'s version changes with every write that changes the report, and only then', () => {
  const db = database();
  const warcDir = mkdtempSync(join(tmpdir(), 'tm-coherence-version-'));
  const versions: string[] = [];
  const step = (what: string) => {
    const version = coherenceVersion(db, 1, warcDir);
    assert.equal(coherenceReport(db, 1, warcDir).version, version, `${what}: the report carries the version it was read at`);
    assert.ok(!versions.includes(version), `${what}: a new version (${version})`);
    versions.push(version);
  };
  step('no capture yet');
  const store = new CoherenceStore(db, 1);
  store.recordVisit({ url: 'http://quay.test/', parentUrl: null, depth: 0, mime: 'text/html', fingerprint: fingerprint('a'), text: 'a' });
  step('a page visited');
  store.recordVisit({ url: 'http://quay.test/b', parentUrl: 'http://quay.test/', depth: 1, mime: 'text/html', fingerprint: fingerprint('b'), text: 'b' });
  step('another');
  assert.equal(coherenceVersion(db, 1, warcDir), versions.at(-1), 'nothing written: the same version');
  capture(db, 2, 3, 2);
  assert.equal(coherenceVersion(db, 1, warcDir), versions.at(-1), 'another crawl\'s pages do not count');
  store.startRun(Date.parse('2026-11-25T09:00:00Z'));
  step('the revisit pass started');
  const unchanged = { status: 'unchanged' as const, evidence: 'payload-digest' as const, similarity: 1, linksAdded: [], linksRemoved: [], validatorsInconsistent: false };
  store.recordRevisit('http://quay.test/b', { at: Date.parse('2026-11-25T10:00:00Z'), fingerprint: fingerprint('b'), text: 'b', changeRate: 0, verdict: unchanged });
  step('a page revisited');
  store.recordRevisit('http://quay.test/', { at: Date.parse('2026-11-25T10:00:01Z'), fingerprint: null, text: null, changeRate: 1, verdict: { ...unchanged, status: 'missing', evidence: 'gone' } });
  step('the other');
  writeFileSync(join(warcDir, CERTIFICATE_NAME), '{}');
  step('the certificate written');
  store.finishRun({ coherence: 0.5 } as CoherenceSummary);
  step('the run finished');
  assert.equal(coherenceReport(db, 1, warcDir).revisited, 2);
  db.close();
});

test('the report says the crawl\'s status, coherence mode and error, and its version changes with the status', () => {
  const db = database();
  const warcDir = mkdtempSync(join(tmpdir(), 'tm-coherence-crawl-'));
  const icdId = Number(db.prepare("INSERT INTO Icd (name, definition, updatedAt) VALUES ('q', '{}', 0)").run().lastInsertRowid);
  const crawl = (definition: object, status: string) => Number(db.prepare('INSERT INTO Crawl (icdId, definition, name, status) VALUES (?, ?, ?, ?)').run(icdId, JSON.stringify(definition), 'q', status).lastInsertRowid);
  const revisiting = crawl({ coherence: { mode: 'visit-revisit' } }, 'running');
  const snapshot = crawl({ coherence: { mode: 'snapshot' } }, 'finished');
  const older = crawl({}, 'finished');
  assert.deepEqual(coherenceReport(db, revisiting, warcDir).crawl, { status: 'running', mode: 'visit-revisit', error: null });
  assert.deepEqual(coherenceReport(db, snapshot, warcDir).crawl, { status: 'finished', mode: 'snapshot', error: null });
  assert.equal(coherenceReport(db, older, warcDir).crawl.mode, 'snapshot', 'an ICD without a coherence section is a snapshot');
  const before = coherenceVersion(db, revisiting, warcDir);
  db.prepare("UPDATE Crawl SET status = 'failed', error = 'dns: no such host' WHERE id = ?").run(revisiting);
  assert.notEqual(coherenceVersion(db, revisiting, warcDir), before, 'a crawl that failed with no page is a new version, not a 304');
  assert.deepEqual(coherenceReport(db, revisiting, warcDir).crawl, { status: 'failed', mode: 'visit-revisit', error: 'dns: no such host' });
  db.close();
});
