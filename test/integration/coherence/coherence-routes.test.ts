import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../support/run-cli';
import { readZip } from '../../support/read-wacz';
import { startChangingSite, groundTruth } from './changing-site';
import { openSqlite } from '../../../worker/store/sqlite';
import { runExport } from '../../../worker/export/export-job';
import { hashPassword } from '../../../worker/auth/password';
import { SessionStore, SESSION_COOKIE } from '../../../worker/auth/sessions';
import type { CoherenceReport, CoherencePageDetail, CoherenceTreePage } from '../../../worker/coherence/coherence-report';
import type { CoherenceCertificate } from '../../../worker/coherence';

const site = await startChangingSite();
after(() => site.close());

/**
 * The coherence route handlers called as Next calls them (Request in, Response out) over the
 * database and WARC folder of a real visit–revisit crawl: the CLI's state database stands in for
 * the cockpit's, and its output folder for <data dir>/warcs/<crawl id>.
 */
test('coherence routes: session and permission checks, report, page detail, GraphML, certificate', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tm-coherence-routes-'));
  const out = join(dataDir, 'warcs', '1');
  mkdirSync(out, { recursive: true });
  const icdPath = join(dataDir, 'icd.json');
  writeFileSync(icdPath, JSON.stringify({
    name: 'Changing harbour site', seeds: [`${site.origin}/`], aah: { enabled: false },
    politeness: { minDelayMs: 30, maxDelayMs: 200, concurrency: 1, respectRobots: false }, coherence: { mode: 'visit-revisit' },
  }));
  const run = await runCli(['crawl', icdPath, '--out', out, '--json']).done;
  assert.equal(run.code, 0, run.stderr.slice(-2000));
  const truth = groundTruth(site);

  const dbPath = join(out, 'tidemark-state.db');
  const db = openSqlite(dbPath);
  db.prepare("INSERT INTO User (username, passwordHash, role) VALUES ('cora', ?, 'curator')").run(await hashPassword('curator-password'));
  db.prepare("INSERT INTO User (username, passwordHash, role) VALUES ('mona', ?, 'manager')").run(await hashPassword('manager-password'));
  const login = await new SessionStore(db, 1).login('cora', 'curator-password');
  const manager = await new SessionStore(db, 1).login('mona', 'manager-password');
  db.close();
  const cookie = `${SESSION_COOKIE}=${login!.token}`;
  process.env.TIDEMARK_DATA_DIR = dataDir;
  process.env.TIDEMARK_DB = dbPath;

  const report = await import('../../../app/api/crawls/[id]/coherence/route');
  const page = await import('../../../app/api/crawls/[id]/coherence/page/route');
  const tree = await import('../../../app/api/crawls/[id]/coherence/tree/route');
  const graphml = await import('../../../app/api/crawls/[id]/coherence/graphml/route');
  const certificate = await import('../../../app/api/crawls/[id]/coherence/certificate/route');
  const call = (route: { GET: (r: Request, c: { params: Promise<{ id: string }> }) => Promise<Response> }, id: string, query = '', withCookie = true) =>
    route.GET(new Request(`http://127.0.0.1/api/crawls/${id}/coherence${query}`, { headers: withCookie ? { cookie } : {} }), { params: Promise.resolve({ id }) });

  assert.equal((await call(report, '1', '', false)).status, 401);
  assert.equal((await call(report, 'abc')).status, 404);
  assert.equal((await call(report, '99')).status, 404);

  const first = await call(report, '1');
  const r = (await first.json()) as CoherenceReport;
  assert.equal(first.headers.get('etag'), `"${r.version}"`);
  // Asked again with its version, an unchanged report is a 304 without a body; with another, the report.
  const again = (etag: string) => report.GET(new Request('http://127.0.0.1/api/crawls/1/coherence', { headers: { cookie, 'if-none-match': etag } }), { params: Promise.resolve({ id: '1' }) });
  const notModified = await again(`"${r.version}"`);
  assert.equal(notModified.status, 304);
  assert.equal(await notModified.text(), '');
  assert.equal(notModified.headers.get('etag'), `"${r.version}"`);
  assert.equal((await again(`"stale", "${r.version}"`)).status, 304, 'one of several');
  // If-None-Match compares weakly (RFC 9110 §13.1.2): a cache that weakened the tag still gets a 304; so does `*`.
  assert.equal((await again(`W/"${r.version}"`)).status, 304, 'the weak form of the tag');
  assert.equal((await again(`"stale",W/"${r.version}"`)).status, 304, 'the weak form, in a list without spaces');
  assert.equal((await again('*')).status, 304, 'any current report');
  assert.equal((await again(`"${r.version}-x"`)).status, 200, 'a tag that only starts like it');
  const changed = await again('"0-0-0-0-0-0"');
  assert.equal(changed.status, 200);
  assert.deepEqual(await changed.json(), r);
  assert.equal(r.pages, truth.size);
  assert.equal(r.revisited, truth.size);
  assert.equal(r.certificateAvailable, true);
  assert.equal(r.summary!.byStatus.missing, [...truth.values()].filter((s) => s === 'missing').length);

  const detail = await call(page, '1', `/page?url=${encodeURIComponent(`${site.origin}/gone`)}`);
  assert.equal(((await detail.json()) as CoherencePageDetail).status, 'missing');
  assert.equal((await call(page, '1', '/page?url=not-a-url')).status, 400);
  assert.equal((await call(page, '1', `/page?url=${encodeURIComponent(`${site.origin}/never`)}`)).status, 404);
  // By id, as the cockpit asks (a URL may not fit in a request line): the id each tree node carries.
  const rows = ((await (await call(tree, '1', '/tree')).json()) as CoherenceTreePage).items;
  const gone = rows.find((n) => n.url === `${site.origin}/gone`)!;
  const byId = (await (await call(page, '1', `/page?id=${gone.id}`)).json()) as CoherencePageDetail;
  assert.deepEqual([byId.url, byId.status], [`${site.origin}/gone`, 'missing']);
  assert.equal((await call(page, '1', '/page?id=999999')).status, 404);
  assert.equal((await call(page, '1', '/page?id=abc')).status, 400);

  const g = await call(graphml, '1', '/graphml');
  assert.match(g.headers.get('content-disposition')!, /attachment/);
  assert.equal(((await g.text()).match(/<node /g) ?? []).length, truth.size);

  const c = await call(certificate, '1', '/certificate');
  assert.match(c.headers.get('content-disposition')!, /attachment/);
  const cert = (await c.json()) as CoherenceCertificate;
  assert.deepEqual(cert.unchanged.map((p) => p.url), [...truth].filter(([, s]) => s === 'unchanged').map(([u]) => u).sort());

  // A collection of the pages proved unchanged: their visits and revisits, and the certificate.
  const unchanged = [...truth].filter(([, s]) => s === 'unchanged').map(([u]) => u).sort();
  assert.ok(unchanged.length >= 1 && unchanged.length < truth.size);
  const exportDb = openSqlite(dbPath);
  const exportId = Number(exportDb.prepare("INSERT INTO Export (crawlId, status, selection) VALUES (1, 'pending', ?)").run(JSON.stringify({ coherence: ['unchanged'] })).lastInsertRowid);
  const collectionDir = join(dataDir, 'exports', String(exportId));
  await runExport(exportDb, { exportId, crawlId: 1, warcDir: out, exportDir: collectionDir });
  const exported = exportDb.prepare('SELECT status, error, files FROM Export WHERE id = ?').get(exportId) as { status: string; error: string | null; files: string };
  exportDb.close();
  assert.equal(exported.status, 'done', exported.error ?? '');
  assert.ok((JSON.parse(exported.files) as { name: string }[]).some((f) => f.name === 'coherence-certificate.json'), 'the certificate goes with it');
  const indexed = readFileSync(join(collectionDir, 'index.cdxj'), 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l.slice(l.indexOf('{'))) as { url: string }).url);
  // With their requisites: the site's pages embed nothing, but the first page brings the origin's /favicon.ico.
  const home = `${new URL(unchanged[0]!).origin}/`;
  const withRequisites = [...unchanged, ...(unchanged.includes(home) ? [`${home}favicon.ico`] : [])].sort();
  assert.deepEqual([...new Set(indexed)].sort(), withRequisites, 'exactly the pages proved unchanged, and their requisites');
  assert.equal(indexed.filter((u) => unchanged.includes(u)).length, 2 * unchanged.length, 'each with its visit and its revisit');
  // The same as a WACZ package: the certificate goes in under coherence/, listed with its hash.
  const waczDb = openSqlite(dbPath);
  const waczId = Number(waczDb.prepare("INSERT INTO Export (crawlId, status, selection, format) VALUES (1, 'pending', ?, 'wacz')").run(JSON.stringify({ coherence: ['unchanged'] })).lastInsertRowid);
  await runExport(waczDb, { exportId: waczId, crawlId: 1, warcDir: out, exportDir: join(dataDir, 'exports', String(waczId)) });
  const packaged = waczDb.prepare('SELECT status, error, files FROM Export WHERE id = ?').get(waczId) as { status: string; error: string | null; files: string };
  waczDb.close();
  assert.equal(packaged.status, 'done', packaged.error ?? '');
  const [wacz] = JSON.parse(packaged.files) as { name: string }[];
  const entries = await readZip(readFileSync(join(dataDir, 'exports', String(waczId), wacz!.name)));
  assert.ok(entries.get('coherence/coherence-certificate.json')!.bytes.equals(readFileSync(join(out, 'coherence-certificate.json'))));
  const manifest = JSON.parse(entries.get('datapackage.json')!.bytes.toString('utf8')) as { resources: { path: string }[] };
  assert.ok(manifest.resources.some((r) => r.path === 'coherence/coherence-certificate.json'));
  const pageUrls = entries.get('pages/pages.jsonl')!.bytes.toString('utf8').split('\n').filter(Boolean).slice(1).map((l) => (JSON.parse(l) as { url: string }).url);
  assert.ok(pageUrls.length >= 1);
  for (const url of pageUrls) assert.ok(unchanged.includes(url), `${url}: a page proved unchanged`);

  // Deleting the crawl removes its coherence rows and the recrawl tables' rows too.
  const crawlRoute = await import('../../../app/api/crawls/[id]/route');
  const del = await crawlRoute.DELETE(new Request('http://127.0.0.1/api/crawls/1', {
    method: 'DELETE', headers: { cookie: `${SESSION_COOKIE}=${manager!.token}`, 'x-csrf-token': manager!.user.csrfToken, host: '127.0.0.1' },
  }), { params: Promise.resolve({ id: '1' }) });
  assert.equal(del.status, 204, await del.clone().text());
  // (The route also removed <data dir>/warcs/1, where this test keeps the database: ask the server's open handle.)
  const { services } = await import('../../../app/lib/server/services');
  const { db: serverDb, crawlDeletions } = services();
  await crawlDeletions.wake(); // the rows go after the answer
  assert.equal((serverDb.prepare('SELECT COUNT(*) AS n FROM CoherencePage').get() as { n: number }).n, 0);
  assert.equal((serverDb.prepare('SELECT COUNT(*) AS n FROM CoherenceRun').get() as { n: number }).n, 0);
  assert.equal((serverDb.prepare('SELECT COUNT(*) AS n FROM Crawl').get() as { n: number }).n, 0);
});
