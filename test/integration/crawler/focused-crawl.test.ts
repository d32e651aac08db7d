import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTopicalSite } from '../../support/topical-site';
import { runCli } from '../../support/run-cli';
import { runReferenceCrawl } from '../../../worker/focus/reference-crawl';
import { ICD_LIMITS, parseIcd } from '../../../worker/icd/schema';

async function crawlOrder(focus: boolean): Promise<string[]> {
  const site = await startTopicalSite(20);
  const out = mkdtempSync(join(tmpdir(), 'tm-focus-'));
  const icdPath = join(out, 'icd.json');
  writeFileSync(icdPath, JSON.stringify({
    name: 'Focus',
    seeds: [`${site.origin}/`],
    scope: { maxPages: 16 },
    // One fetch at a time, so the fetch order is the frontier's order.
    politeness: { minDelayMs: 0, maxDelayMs: 0, delayFactor: 0, concurrency: 1 },
    focus: { enabled: focus, keywords: [{ term: 'tide', weight: 1 }, { term: 'estuary', weight: 1 }, { term: 'sea level', weight: 1 }] },
  }));
  try {
    const run = await runCli(['crawl', icdPath, '--out', out, '--json']).done;
    assert.equal(run.code, 0, run.stderr);
    // The CLI's bundle carries the analysis thread's entry: the analysis must not fall back.
    assert.doesNotMatch(run.stderr, /analysis thread failed/);
    return site.requests.filter((p) => p !== '/robots.txt').map(site.topicOf);
  } finally {
    await site.close();
  }
}

test('focused crawling fetches the relevant topic first; breadth-first does not', { timeout: 120_000 }, async () => {
  const focused = await crawlOrder(true);
  const bfs = await crawlOrder(false);
  const share = (order: string[]) => order.filter((t) => t === 'tides').length / order.filter((t) => t !== 'index').length;
  assert.ok(share(focused) >= 0.75, `focused: ${focused.join(' ')}`);
  assert.ok(share(bfs) <= 0.6, `bfs: ${bfs.join(' ')}`);
  assert.ok(share(focused) > share(bfs));
});

test("a focused crawl keeps `concurrency` fetches at once, though its fetched pages wait for the analysis thread without a slot", { timeout: 120_000 }, async () => {
  const site = await startTopicalSite(20, { delayMs: 40 });
  const out = mkdtempSync(join(tmpdir(), 'tm-focus-slots-'));
  const icdPath = join(out, 'icd.json');
  writeFileSync(icdPath, JSON.stringify({
    name: 'Slots',
    seeds: [`${site.origin}/`],
    politeness: { enabled: false, concurrency: 3 },
    focus: { enabled: true, keywords: [{ term: 'tide', weight: 1 }] },
  }));
  try {
    const run = await runCli(['crawl', icdPath, '--out', out, '--json']).done;
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /analysis thread failed/);
    assert.equal(JSON.parse(run.stdout.trim().split('\n').at(-1)!).pages, 43, 'robots.txt, the index, /favicon.ico and the 40 pages');
    assert.equal(site.maxOpen, 3, 'three fetches at once, never more');
  } finally {
    await site.close();
  }
});

test('the reference crawl proposes topic terms from the pages near the seeds', { timeout: 60_000 }, async () => {
  const site = await startTopicalSite(10);
  try {
    const icd = parseIcd({
      name: 'Ref', seeds: [`${site.origin}/tides/0.html`],
      politeness: { minDelayMs: 0 },
      focus: { enabled: true, keywords: [{ term: 'moon', weight: 1 }], referenceCrawl: { maxPages: 5, maxDepth: 2 } },
    });
    const result = await runReferenceCrawl(icd);
    assert.equal(result.documents.length, 5);
    const terms = result.topTerms.slice(0, 12).map((t) => t.term);
    assert.ok(terms.includes('moon'), `keyword term present: ${terms.join(', ')}`);
    assert.ok(terms.some((t) => t.startsWith('tide') || t.startsWith('estuar')), `site vocabulary present: ${terms.join(', ')}`);
    assert.ok(result.topicTerms['moon']! > 0);
  } finally {
    await site.close();
  }
});

test('the reference crawl reports each URL it tries, failures included, and stops when aborted', { timeout: 60_000 }, async () => {
  const site = await startTopicalSite(10);
  try {
    const icd = parseIcd({
      name: 'Ref', seeds: ['http://127.0.0.1:9/', `${site.origin}/tides/0.html`],
      politeness: { minDelayMs: 0 },
      limits: { connectTimeoutMs: 1000 },
      focus: { enabled: true, referenceCrawl: { maxPages: 4, maxDepth: 2 } },
    });
    const seen: { fetched: number; documents: number; total: number; url: string }[] = [];
    const result = await runReferenceCrawl(icd, { onProgress: (p) => seen.push(p) });
    assert.equal(seen[0]!.url, 'http://127.0.0.1:9/');
    assert.deepEqual(seen[0]!, { fetched: 1, documents: 0, total: 4, url: 'http://127.0.0.1:9/' }, 'a failed fetch is reported too');
    assert.deepEqual(seen.map((p) => p.fetched), seen.map((_, i) => i + 1));
    assert.equal(seen.at(-1)!.documents, 4);
    assert.equal(result.documents.length, 4);
    assert.equal(result.failures.length, 1);

    // Polite (10 s between fetches) and aborted after the first page: it ends during the wait.
    const stop = new AbortController();
    const started = Date.now();
    const polite = parseIcd({ ...icd, seeds: [`${site.origin}/tides/0.html`], politeness: { minDelayMs: 10_000, maxDelayMs: 10_000 } });
    const cut = await runReferenceCrawl(polite, { onProgress: () => stop.abort(), signal: stop.signal });
    // Half the 10 s wait that a crawl deaf to the abort would sit out.
    assert.ok(Date.now() - started < 5_000, `stopped in ${Date.now() - started} ms`);
    assert.equal(cut.documents.length, 1, 'the terms come from the pages fetched so far');
    assert.ok(cut.topTerms.length > 0);
  } finally {
    await site.close();
  }
});

test('the reference crawl proposes at most the 5,000 strongest terms, so its topicTerms always save into the ICD', { timeout: 60_000 }, async (t) => {
  // One page of 8,000 distinct made-up words, the first 100 repeated so they weigh more.
  const syllables = ['ba', 'ko', 'di', 'me', 'lu', 'ra', 'fi', 'so', 'ne', 'tu', 'ga', 'pe', 'zo', 'vi', 'ha', 'mu', 'ri', 'la', 'do', 'ke'];
  const word = (i: number) => `${syllables[i % 20]}${syllables[Math.floor(i / 20) % 20]}${syllables[Math.floor(i / 400) % 20]}x`;
  const words = Array.from({ length: 8000 }, (_, i) => word(i));
  const html = `<!DOCTYPE html><html lang="en"><head><title>Words</title></head><body><main><p>${[...words.slice(0, 100), ...words.slice(0, 100), ...words].join(' ')}</p></main></body></html>`;
  const server = createServer((req, res) => (req.url === '/' ? res.end(html) : (res.statusCode = 404, res.end())));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise((r) => server.close(r)));
  const icd = parseIcd({
    name: 'Many terms', seeds: [`http://127.0.0.1:${(server.address() as AddressInfo).port}/`],
    politeness: { respectRobots: false, minDelayMs: 0 },
    focus: { enabled: true, language: 'eng', referenceCrawl: { maxPages: 1, maxDepth: 0 } },
  });
  const result = await runReferenceCrawl(icd);
  const terms = Object.entries(result.topicTerms);
  assert.equal(terms.length, ICD_LIMITS.topicTerms);
  const kept = Math.min(...terms.map(([, w]) => w));
  assert.ok(words.slice(0, 100).every((w) => result.topicTerms[w]! > kept), 'the repeated words are kept, stronger than any other');
  assert.doesNotThrow(() => parseIcd({ ...icd, focus: { ...icd.focus, topicTerms: result.topicTerms } }));
});
