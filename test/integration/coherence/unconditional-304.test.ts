/**
 * A server that answers 304 Not Modified to any GET, validators or not. A revisit of a page whose
 * validators are not trusted (none, or a weak ETag) sends none, yet its 304 counted the page
 * unchanged (evidence not-modified) and certified it; a recrawl round's refetch of a page without
 * validators counted it unchanged too. Such a 304 now proves nothing: the revisit makes the page
 * missing with evidence `unconditional-304` (no change rate, not certified), the refetch observes
 * nothing (archived as a response, retried in the next round). A 304 to a conditional GET is
 * still unchanged.
 * Real parts: a migrated SQLite database, the engine (on a shortened minute for the rounds), a
 * loopback site that records the validators each request sent, the certificate written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { CERTIFICATE_FILE } from '../../../worker/crawler/revisit-pass';
import type { CoherenceCertificate } from '../../../worker/coherence';
import { withSiteCrawl } from '../../support/site-crawl';
import { countedSite } from '../../support/counted-site';

const LAST_MODIFIED = 'Mon, 01 Jan 2024 00:00:00 GMT';

/** / links /always304 (no validators; 304 to every request after its first) and /strong (a strong ETag, 304 when it is sent back). */
function site() {
  const validatorsSent = new Map<string, string[]>();
  const counted = countedSite((path, n, req, res) => {
    const sent = [req.headers['if-none-match'], req.headers['if-modified-since']].filter((v): v is string => typeof v === 'string');
    validatorsSent.set(path, [...(validatorsSent.get(path) ?? []), sent.join(' ') || '-']);
    const html = (body: string, headers: Record<string, string> = {}) => void res.writeHead(200, { 'content-type': 'text/html', ...headers }).end(body);
    if (path === '/') return html('<a href="/always304">a</a> <a href="/strong">s</a>', { 'last-modified': LAST_MODIFIED });
    if (path === '/always304') return n > 1 ? void res.writeHead(304).end() : html('<p>always 304 after this</p>');
    if (path === '/strong') return req.headers['if-none-match'] === '"s1"' ? void res.writeHead(304, { etag: '"s1"' }).end() : html('<p>strong</p>', { etag: '"s1"' });
    res.writeHead(404).end();
  });
  return { ...counted, validatorsSent };
}

test('a 304 to a revisit that sent no validators is not certified unchanged: missing, evidence unconditional-304', { timeout: 60_000 }, async () => {
  const s = site();
  const fields = { name: 'Unconditional 304 revisit', coherence: { mode: 'visit-revisit' }, limits: { maxRetries: 0 } };
  await withSiteCrawl('tm-revisit-unconditional-304-', s.listener, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const warcDir = join(dir, 'warcs');
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool') });
    assert.equal(await engine.run(), 'finished');
    assert.deepEqual(s.validatorsSent.get('/always304'), ['-', '-'], 'the visit and the revisit sent no validators');
    assert.deepEqual(s.validatorsSent.get('/strong'), ['-', '"s1"'], 'the revisit of a page with a strong ETag was conditional');
    const page = (url: string) => db.prepare('SELECT status, evidence, changeRate FROM CoherencePage WHERE crawlId = ? AND url = ?').get(crawlId, url);
    assert.deepEqual(page(`${origin}/always304`), { status: 'missing', evidence: 'unconditional-304', changeRate: null });
    assert.deepEqual(page(`${origin}/strong`), { status: 'unchanged', evidence: 'not-modified', changeRate: 0 }, 'a 304 to a conditional GET still proves it');
    const certificate = JSON.parse(readFileSync(join(warcDir, CERTIFICATE_FILE), 'utf8')) as CoherenceCertificate;
    assert.ok(!certificate.unchanged.some((p) => p.url === `${origin}/always304`), 'not certified unchanged');
    assert.deepEqual(certificate.notCertified, [{ url: `${origin}/always304`, status: 'missing', evidence: 'unconditional-304' }]);
    const captures = db.prepare('SELECT status, recordType FROM Capture WHERE crawlId = ? AND url = ? ORDER BY id').all(crawlId, `${origin}/always304`);
    assert.deepEqual(captures, [{ status: 200, recordType: 'response' }, { status: 304, recordType: 'response' }], 'the 304 archived as a response, not as a server-not-modified revisit');
  });
});

test('a recrawl refetch answered 304 without validators sent is neither unchanged nor changed: nothing observed', { timeout: 60_000 }, async () => {
  const s = site();
  const fields = { name: 'Unconditional 304 recrawl', coherence: { recrawlIntervalMinutes: 1 }, limits: { maxRetries: 0 } };
  await withSiteCrawl('tm-recrawl-unconditional-304-', s.listener, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
    const run = engine.run();
    for (const end = Date.now() + 40_000; (engine.incremental?.rounds.length ?? 0) < 1 && Date.now() < end; ) await sleep(5);
    await engine.stop();
    assert.equal(await run, 'stopped');
    const round = engine.incremental?.rounds[0];
    assert.ok(round, 'a round ran');
    const captures = db.prepare('SELECT status, recordType FROM Capture WHERE crawlId = ? AND url = ? ORDER BY id').all(crawlId, `${origin}/always304`) as { status: number; recordType: string }[];
    assert.deepEqual(captures.slice(0, 2), [{ status: 200, recordType: 'response' }, { status: 304, recordType: 'response' }], 'the 304 archived as a response');
    assert.equal(s.validatorsSent.get('/always304')?.[1], '-', 'its refetch sent no validators');
    const log = db.prepare('SELECT message FROM CrawlLogEntry WHERE crawlId = ? AND url = ? AND message LIKE ? ORDER BY id').pluck().all(crawlId, `${origin}/always304`, 'recrawl round 1%') as string[];
    assert.match(log[0] ?? '', /no answer about the page \(HTTP 304 to a request without validators\)/);
    // The round observed /, /strong (the seed and a page with validators), not /always304.
    assert.equal(round.changed, 0);
    assert.equal(round.fetched, round.due - 1, `all due pages but /always304 observed: ${JSON.stringify(round)}`);
  });
});
