/**
 * A knowledge base edited in the cockpit is the one crawls run with. Through the real route
 * handlers over a migrated database (route-database.ts): a knowledge base saved with PUT
 * /api/knowledge-bases/:name, an ICD naming it, crawls created with POST /api/crawls; then the
 * worker's CrawlManager runs them against a loopback tide-gauge site whose markup only that
 * knowledge base knows. Each crawl extracts with the copy taken when it was created; a crawl
 * created before copies were taken runs with the shipped knowledge-base/default.xml.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import type { RequestListener } from 'node:http';
import type Database from 'better-sqlite3';
import type { Services } from '../../../app/lib/server/services';
import { CrawlManager } from '../../../worker/process/crawl-manager';
import { openSqlite } from '../../../worker/store/sqlite';
import { callRoute, routeDatabase, signedInAs, type RouteHandler } from '../../support/route-database';
import { withSite } from '../../support/site-crawl';
import { until } from '../../support/engine-run';

let s: Services;
let admin = { cookie: '', csrf: '' };

before(async () => {
  s = await routeDatabase('tidemark-cockpit-kb-');
  admin = await signedInAs(s, 'root', 'admin');
});

const call = <P>(handler: RouteHandler<P>, method: string, path: string, body: unknown, params: P) => callRoute(admin, handler, method, path, body, params);

const saveKnowledgeBase = async (name: string, xml: string) => {
  const { PUT } = await import('../../../app/api/knowledge-bases/[name]/route');
  const saved = await call(PUT, 'PUT', `/api/knowledge-bases/${name}`, { xml }, { name });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
};
const createIcd = async (icd: Record<string, unknown>): Promise<number> => {
  const { POST } = await import('../../../app/api/icds/route');
  const created = await call(POST, 'POST', '/api/icds', icd, {});
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.id as number;
};
const createCrawl = async (icdId: number) => {
  const { POST } = await import('../../../app/api/crawls/route');
  return call(POST, 'POST', '/api/crawls', { icdId }, {});
};
const crawlCount = () => s.db.prepare('SELECT COUNT(*) FROM Crawl').pluck().get() as number;

/** Two stations, each page listing its readings; the index links to them. No shipped application knows this markup. */
const STATIONS: Record<string, { name: string; readings: [string, string][] }> = {
  '1': { name: 'Harbour Quay', readings: [['2026-11-26T06:00Z', '4.1 m'], ['2026-11-26T12:00Z', '0.9 m']] },
  '2': { name: 'North Pier', readings: [['2026-11-26T06:10Z', '3.8 m'], ['2026-11-26T12:10Z', '1.2 m']] },
};
const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body id="tidegauge"><h1>${title}</h1>${body}</body></html>`;
const tideSite: RequestListener = (req, res) => {
  const station = /^\/station\/(\d+)$/.exec(req.url ?? '')?.[1];
  const known = station ? STATIONS[station] : undefined;
  let html: string | null = null;
  if (req.url === '/') html = page('Gauges', Object.keys(STATIONS).map((id) => `<a class="station" href="/station/${id}">${STATIONS[id]!.name}</a>`).join(' '));
  else if (known) html = page(known.name, `<ul>${known.readings.map(([at, height]) => `<li class="reading"><time datetime="${at}">${at}</time> <span class="height">${height}</span></li>`).join('')}</ul>`);
  res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(html ?? 'not found');
};

/** The tide-gauge application, its readings' fields as `fields` (XML of <field> elements). */
const tideKnowledgeBase = (fields: string) => `<?xml version="1.0" encoding="UTF-8"?>
<knowledge-base version="1">
  <application id="tidegauge" name="Tide gauge" category="news">
    <detect><xpath>//body[@id='tidegauge']</xpath></detect>
    <level type="terminal">
      <detect><url>/station/\\d+</url></detect>
      <extract id="reading" type="reading" select="//li[@class='reading']">
        ${fields}
      </extract>
    </level>
    <navigate id="stations" select="//a[@class='station']"/>
  </application>
</knowledge-base>
`;
const FIRST_FIELDS = `<field name="at" select=".//time/@datetime" required="true"/><field name="height" select=".//span[@class='height']" required="true"/>`;
const EDITED_FIELDS = `${FIRST_FIELDS}<field name="station" select="ancestor::body//h1"/>`;

/** Every Web object of the crawl as [path, type, rule, fields], sorted. */
function objectsOf(crawlId: number): [string, string, string, Record<string, string>][] {
  const rows = s.db.prepare('SELECT url, type, rule, fields FROM WebObject WHERE crawlId = ?').all(crawlId) as { url: string; type: string; rule: string; fields: string }[];
  return rows.map((r): [string, string, string, Record<string, string>] => [new URL(r.url).pathname, r.type, r.rule, JSON.parse(r.fields)]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}
const readings = (withStation: boolean) =>
  Object.entries(STATIONS)
    .flatMap(([id, st]) => st.readings.map(([at, height]): [string, string, string, Record<string, string>] => [`/station/${id}`, 'reading', 'tidegauge/terminal/reading', { at, height, ...(withStation ? { station: st.name } : {}) }]))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

let worker: Database.Database;
let manager: CrawlManager | null = null;
after(async () => {
  await manager?.shutdown();
  worker?.close();
});

/** Runs the crawls with the worker's code path (CrawlManager on its own connection) until each has ended; their statuses. */
async function runCrawls(ids: number[]): Promise<Record<number, { status: string; error: string | null }>> {
  worker ??= openSqlite(s.env.dbPath);
  manager ??= new CrawlManager({ db: worker, dataDir: s.env.dataDir, send: () => undefined, kbPath: resolve('knowledge-base/default.xml') });
  manager.start();
  const ended = () => ids.map((id) => s.db.prepare('SELECT status, error FROM Crawl WHERE id = ?').get(id) as { status: string; error: string | null });
  await until('the crawls have ended', () => ended().every((c) => ['finished', 'failed', 'stopped'].includes(c.status)), 60_000);
  await manager.shutdown();
  return Object.fromEntries(ids.map((id, i) => [id, ended()[i]!]));
}

test('a crawl runs with the copy of the cockpit knowledge base taken when it was created; an edit changes the next crawls only', async () => {
  await withSite(tideSite, async (origin) => {
    await saveKnowledgeBase('tides', tideKnowledgeBase(FIRST_FIELDS));
    const icdId = await createIcd({ name: 'Tide gauges', seeds: [`${origin}/`], politeness: { enabled: false }, aah: { enabled: true, knowledgeBase: 'tides' } });
    const before = await createCrawl(icdId);
    assert.equal(before.status, 201, JSON.stringify(before.body));
    assert.equal(before.body.knowledgeBaseName, 'tides', 'the crawl says which knowledge base it uses');

    // Edited after the first crawl was created, before it ran: that crawl keeps its copy.
    await saveKnowledgeBase('tides', tideKnowledgeBase(EDITED_FIELDS));
    const afterEdit = await createCrawl(icdId);
    assert.equal(afterEdit.status, 201, JSON.stringify(afterEdit.body));

    // A crawl created before crawls took copies (none stored) runs with the shipped knowledge base.
    const legacy = (await createCrawl(icdId)).body.id as number;
    s.db.prepare('UPDATE Crawl SET knowledgeBaseName = NULL, knowledgeBaseXml = NULL WHERE id = ?').run(legacy);

    const firstId = before.body.id as number;
    const secondId = afterEdit.body.id as number;
    const ended = await runCrawls([firstId, secondId, legacy]);
    for (const id of [firstId, secondId, legacy]) assert.equal(ended[id]!.status, 'finished', `crawl ${id}: ${ended[id]!.error}`);

    assert.deepEqual(objectsOf(firstId), readings(false), 'the first crawl extracted with the rules as they were when it was created');
    assert.deepEqual(objectsOf(secondId), readings(true), 'the crawl created after the edit extracted with the edited rules');
    assert.deepEqual(objectsOf(legacy), [], 'the shipped knowledge base knows no tide gauge');
    const captured = s.db.prepare("SELECT url FROM Capture WHERE crawlId = ? AND url LIKE '%/station/%' ORDER BY url").pluck().all(legacy);
    assert.deepEqual(captured, [`${origin}/station/1`, `${origin}/station/2`], 'it crawled the same pages');
  });
});

test('a crawl whose copy of its knowledge base does not parse fails, saying why, and the worker goes on with the others', async () => {
  await withSite(tideSite, async (origin) => {
    await saveKnowledgeBase('tides-broken', tideKnowledgeBase(FIRST_FIELDS));
    const icdId = await createIcd({ name: 'Broken copy', seeds: [`${origin}/`], politeness: { enabled: false }, aah: { knowledgeBase: 'tides-broken' } });
    const broken = (await createCrawl(icdId)).body.id as number;
    // Only a damaged database (or a parser grown stricter since the copy was taken) gets here: PUT refuses invalid XML.
    s.db.prepare('UPDATE Crawl SET knowledgeBaseXml = ? WHERE id = ?').run('<knowledge-base version="1">\n  <application id="x">\n</knowledge-base>', broken);
    const fine = (await createCrawl(icdId)).body.id as number;
    const ended = await runCrawls([broken, fine]);
    assert.equal(ended[broken]!.status, 'failed');
    assert.match(ended[broken]!.error ?? '', /^The crawl's copy of the knowledge base “tides-broken” \(taken when it was created\) cannot be used: Invalid knowledge base: line \d+: /);
    assert.equal(s.db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ?').pluck().get(broken), 0, 'nothing was fetched');
    assert.equal(ended[fine]!.status, 'finished', ended[fine]!.error ?? '');
    assert.equal(objectsOf(fine).length, 4);
  });
});

test('POST /api/crawls refuses an ICD whose AAH names a knowledge base not stored, with 400 naming it and the field, creating nothing', async () => {
  const icdId = await createIcd({ name: 'Nowhere', seeds: ['https://a.example.org/'], aah: { knowledgeBase: 'nowhere' } });
  const crawls = crawlCount();
  const refused = await createCrawl(icdId);
  assert.equal(refused.status, 400);
  const message = 'No knowledge base “nowhere” is stored, and the crawl definition\'s aah.knowledgeBase names it: save a knowledge base of that name, choose another one, or turn the Application-Aware Helper off';
  assert.deepEqual(refused.body, { error: message, issues: [{ path: ['aah', 'knowledgeBase'], message }] });
  assert.equal(crawlCount(), crawls, 'no crawl row');

  // With the AAH off the knowledge base is not needed, and none is copied.
  const off = await createCrawl(await createIcd({ name: 'Nowhere, AAH off', seeds: ['https://a.example.org/'], aah: { enabled: false, knowledgeBase: 'nowhere' } }));
  assert.equal(off.status, 201, JSON.stringify(off.body));
  assert.equal(off.body.knowledgeBaseName, null);
  assert.deepEqual(s.db.prepare('SELECT knowledgeBaseName, knowledgeBaseXml FROM Crawl WHERE id = ?').get(off.body.id), { knowledgeBaseName: null, knowledgeBaseXml: null });
});

test('the editor\'s check, Save and the tester take a knowledge base by the same size limit: what the check calls valid saves and runs', async () => {
  const { POST: validate } = await import('../../../app/api/knowledge-bases/validate/route');
  const { PUT } = await import('../../../app/api/knowledge-bases/[name]/route');
  const { POST: tester } = await import('../../../app/api/aah/test/route');
  const base = tideKnowledgeBase('<field name="height" select=".//span"/>');
  // 5.1 million characters, well documented: under the parser's 5 MiB, over 5,000,000 characters.
  const large = base.replace('<knowledge-base version="1">', `<knowledge-base version="1">\n<!-- ${'notes on the gauges '.repeat(255_000)} -->`);
  assert.ok(large.length > 5_000_000 && Buffer.byteLength(large) < 5 * 1024 * 1024);
  const checked = await call(validate, 'POST', '/api/knowledge-bases/validate', { xml: large }, {});
  assert.deepEqual(checked.body, { errors: [] });
  const saved = await call(PUT, 'PUT', '/api/knowledge-bases/large', { xml: large }, { name: 'large' });
  assert.equal(saved.status, 200, JSON.stringify(saved.body).slice(0, 300));
  const html = page('Harbour Quay', '<ul><li class="reading"><time datetime="x">x</time> <span class="height">4.1 m</span></li></ul>');
  const tried = await call(tester, 'POST', '/api/aah/test', { xml: large, url: 'http://gauges.test/station/1', html }, {});
  assert.equal(tried.status, 200, JSON.stringify(tried.body).slice(0, 300));
  assert.equal((tried.body as { application: { id: string } }).application.id, 'tidegauge');
  // Over the limit in bytes (fewer characters, each of two bytes): refused alike, by the parser's message.
  const wide = base.replace('<knowledge-base version="1">', `<knowledge-base version="1">\n<!-- ${'é'.repeat(2_700_000)} -->`);
  const wideChecked = (await call(validate, 'POST', '/api/knowledge-bases/validate', { xml: wide }, {})).body as { errors: { message: string }[] };
  assert.match(wideChecked.errors[0]!.message, /the limit is 5\.0 MB/);
  const refused = await call(PUT, 'PUT', '/api/knowledge-bases/wide', { xml: wide }, { name: 'wide' });
  assert.equal(refused.status, 400);
  assert.match(JSON.stringify(refused.body), /the limit is 5\.0 MB/);
});

test('the editor\'s check and Save refuse a navigation rule that can never select a link, at its line', async () => {
  const { POST: validate } = await import('../../../app/api/knowledge-bases/validate/route');
  const { PUT } = await import('../../../app/api/knowledge-bases/[name]/route');
  const xml = tideKnowledgeBase('<field name="height" select=".//span"/>').replace(`select="//a[@class='station']"`, `select="//a[@class='station']/text()"`);
  const line = xml.split('\n').findIndex((l) => l.includes('/text()')) + 1;
  const checked = (await call(validate, 'POST', '/api/knowledge-bases/validate', { xml }, {})).body as { errors: { line: number; message: string }[] };
  assert.deepEqual(checked.errors.map((e) => e.line), [line]);
  assert.match(checked.errors[0]!.message, /selects text, comments or processing instructions, not elements: a navigation rule selects links/);
  const saved = await call(PUT, 'PUT', '/api/knowledge-bases/text-links', { xml }, { name: 'text-links' });
  assert.equal(saved.status, 400);
  assert.match(JSON.stringify(saved.body), new RegExp(`line ${line}: <navigate>: select`));
});

test('the editor\'s check refuses XML longer than Save takes with Save\'s 400 and message (it read up to 10 MB)', async () => {
  const { POST: validate } = await import('../../../app/api/knowledge-bases/validate/route');
  const { PUT } = await import('../../../app/api/knowledge-bases/[name]/route');
  // 6 million characters, over Save's 5 MiB whatever the encoding.
  const long = tideKnowledgeBase('<field name="height" select=".//span"/>').replace('<knowledge-base version="1">', `<knowledge-base version="1">\n<!-- ${'x'.repeat(6_000_000)} -->`);
  const saved = await call(PUT, 'PUT', '/api/knowledge-bases/long', { xml: long }, { name: 'long' });
  assert.equal(saved.status, 400);
  const message = 'The knowledge base is larger than 5 MB';
  assert.deepEqual((saved.body as { issues: unknown }).issues, [{ path: ['xml'], message }]);
  const checked = await call(validate, 'POST', '/api/knowledge-bases/validate', { xml: long }, {});
  assert.equal(checked.status, 400, JSON.stringify(checked.body).slice(0, 300));
  assert.deepEqual(checked.body, { error: 'invalid', errors: [{ line: 1, column: 1, message }], issues: [{ path: ['xml'], message }] });
});

test('the tester finds a captured page by the URL as a person types it (no trailing slash, a fragment, dot segments)', async () => {
  const { POST: tester } = await import('../../../app/api/aah/test/route');
  await withSite(tideSite, async (origin) => {
    await saveKnowledgeBase('tides-typed', tideKnowledgeBase(FIRST_FIELDS));
    const icdId = await createIcd({ name: 'Typed URLs', seeds: [`${origin}/`], politeness: { enabled: false }, aah: { enabled: true, knowledgeBase: 'tides-typed' } });
    const crawlId = (await createCrawl(icdId)).body.id as number;
    assert.equal((await runCrawls([crawlId]))[crawlId]!.status, 'finished');
    const xml = tideKnowledgeBase(FIRST_FIELDS);
    for (const url of [origin, `${origin}/station/1#readings`, `${origin}/x/../station/1`]) {
      const tried = await call(tester, 'POST', '/api/aah/test', { xml, url, crawlId }, {});
      assert.equal(tried.status, 200, `${url}: ${JSON.stringify(tried.body)}`);
      assert.equal((tried.body as { application: { id: string } | null }).application?.id, 'tidegauge', url);
    }
    const missing = await call(tester, 'POST', '/api/aah/test', { xml, url: `${origin}/station/9`, crawlId }, {});
    assert.equal(missing.status, 404);
  });
});

// Found by an exploratory session: the tester analysed captures a crawl never runs the AAH on (an
// octet-stream, JSON, a redirect) and answered "Application: none detected", or, for one holding the
// application's markup, the application: a crawl runs the AAH on 2xx HTML pages only.
test('the tester does not analyse a capture a crawl would not (another type, a redirect, an error page), and says so', async () => {
  const { POST: tester } = await import('../../../app/api/aah/test/route');
  const station = STATIONS['1']!;
  const markup = page(station.name, `<ul><li class="reading"><time datetime="x">x</time> <span class="height">1 m</span></li></ul>`);
  const site: RequestListener = (req, res) => {
    const path = req.url ?? '/';
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page('Gauges', ['/station/1', '/station/2', '/raw', '/data.json', '/moved', '/gone'].map((p) => `<a href="${p}">${p}</a>`).join(' ')));
    if (path === '/station/1') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(markup);
    // No Content-Type: sniffed as HTML, as the crawl sniffs it.
    if (path === '/station/2') return void res.writeHead(200).end(markup);
    if (path === '/raw') return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(markup);
    if (path === '/data.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"station": 1}');
    if (path === '/moved') return void res.writeHead(301, { location: '/station/1' }).end();
    if (path === '/gone') return void res.writeHead(404, { 'content-type': 'text/html' }).end(markup);
    res.writeHead(404).end();
  };
  await withSite(site, async (origin) => {
    const icdId = await createIcd({ name: 'Not only pages', seeds: [`${origin}/`], politeness: { enabled: false }, aah: { enabled: false } });
    const crawlId = (await createCrawl(icdId)).body.id as number;
    assert.equal((await runCrawls([crawlId]))[crawlId]!.status, 'finished');
    const xml = tideKnowledgeBase(FIRST_FIELDS);
    const tried = async (path: string) => {
      const r = await call(tester, 'POST', '/api/aah/test', { xml, url: `${origin}${path}`, crawlId }, {});
      assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
      const body = r.body as { application: { id: string } | null; skipped?: string; extraction: unknown[] };
      return [body.application?.id ?? null, body.skipped ?? null, body.extraction.length];
    };
    assert.deepEqual(await tried('/station/1'), ['tidegauge', null, 1]);
    assert.deepEqual(await tried('/station/2'), ['tidegauge', null, 1], 'no Content-Type, HTML sniffed');
    for (const path of ['/raw', '/data.json', '/moved', '/gone']) assert.deepEqual(await tried(path), [null, 'not-html', 0], path);
  });
});

// Found by an exploratory session: the tester read a capture as UTF-8 whatever its charset (a
// windows-1252 page's accented letters came out as U+FFFD) and gave the engine no header but
// Content-Type, so an application a crawl detects by its headers (phpBB's cookies, Drupal's
// X-Generator) was "none detected" on the very page the crawl had detected it on.
test('the tester reads a capture in its charset and with its response headers, as the crawl did', async () => {
  const { POST: tester } = await import('../../../app/api/aah/test/route');
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<knowledge-base version="1">
  <application id="tidegauge" name="Tide gauge" category="news">
    <detect><header name="x-gauge">^TideGauge</header></detect>
    <extract id="reading" type="reading" select="//li[@class='reading']"><field name="height" select=".//span" required="true"/></extract>
  </application>
</knowledge-base>`;
  const latin = `<!doctype html><html><head><title>Hafen</title></head><body><ul><li class="reading"><span>1,5 m \u2013 Hafen S\u00fcd</span></li></ul></body></html>`;
  const site: RequestListener = (req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/station/3">3</a>');
    if (req.url === '/station/3') return void res.writeHead(200, { 'content-type': 'text/html; charset=windows-1252', 'x-gauge': 'TideGauge 2.1' }).end(Buffer.from(latin.replace('\u2013', '\x96'), 'latin1'));
    res.writeHead(404).end();
  };
  await withSite(site, async (origin) => {
    const icdId = await createIcd({ name: 'Latin gauges', seeds: [`${origin}/`], politeness: { enabled: false }, aah: { enabled: false } });
    const crawlId = (await createCrawl(icdId)).body.id as number;
    assert.equal((await runCrawls([crawlId]))[crawlId]!.status, 'finished');
    const r = await call(tester, 'POST', '/api/aah/test', { xml, url: `${origin}/station/3`, crawlId }, {});
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const body = r.body as { application: { id: string } | null; extraction: { objects: { fields: Record<string, string> }[] }[] };
    assert.equal(body.application?.id, 'tidegauge');
    assert.deepEqual(body.extraction.flatMap((e) => e.objects.map((o) => o.fields)), [{ height: '1,5 m \u2013 Hafen S\u00fcd' }]);
  });
});
