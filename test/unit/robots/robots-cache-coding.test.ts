import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { HttpExchange } from '../../../worker/capture';
import type { FetchOutcome } from '../../../worker/fetch';
import { RobotsCache, robotsCaptureMessage, type RobotsVerdict } from '../../../worker/robots';
import { gzipDamagedAfterFirstBlock } from '../../support/damaged-gzip';

/**
 * robots.txt answered 200 with a content coding that cannot be undone to its end: its rules are
 * read from the bytes as they came when those are plain text, and otherwise robots.txt is
 * unreadable, unreachable as a 5xx is (tried again, then disallow-all), never "no rules".
 */
const ORIGIN = 'http://coded.test';
const RULES = 'User-agent: *\nDisallow: /private\n';

function answer(bytes: Buffer, headers: Record<string, string>, truncated: HttpExchange['truncated'] = null): HttpExchange {
  return {
    url: `${ORIGIN}/robots.txt`, date: new Date(0), ip: '192.0.2.1', requestHead: Buffer.alloc(0), responseHead: Buffer.alloc(0), status: 200,
    headers, body: { kind: 'memory', bytes }, payloadDigest: 'sha1:X', truncated,
  };
}

/** The verdicts for /private at each of the cache's three tries of robots.txt answered `exchange` each time. */
async function verdictsOverTries(exchange: HttpExchange): Promise<RobotsVerdict[]> {
  let clock = 1_000_000;
  const outcome: FetchOutcome = { ok: true, exchange, durationMs: 1, retries: 0 };
  const robots = new RobotsCache({
    userAgent: 'Tidemark', enabled: true, ignoreFor: [], maxAttempts: 3, backoff: { baseMs: 1000, maxMs: 10_000 },
    now: () => clock, random: () => 0.5, fetchRobots: async () => outcome,
  });
  const verdicts: RobotsVerdict[] = [];
  for (let i = 0; i < 3; i++) {
    const verdict = await robots.check(`${ORIGIN}/private`);
    verdicts.push(verdict);
    if (verdict.retryAt === undefined) break;
    clock = verdict.retryAt;
  }
  return verdicts;
}

const disallowed: RobotsVerdict[] = [{ allowed: false, reason: 'robots-disallowed' }];
const unreachableThenUnavailable = ['robots-retry', 'robots-retry', 'robots-unavailable'];

test('a plain robots.txt labelled with a coding it is not in, or one the crawl does not undo: its rules read as it came', async () => {
  for (const coding of ['gzip', 'deflate', 'br', 'utf-8', 'gzip, br']) {
    assert.deepEqual(await verdictsOverTries(answer(Buffer.from(RULES), { 'content-encoding': coding })), disallowed, coding);
  }
  const note = await robotsCaptureMessage(answer(Buffer.from(RULES), { 'content-encoding': 'gzip' }));
  assert.equal(note, 'robots.txt; Content-Encoding "gzip": corrupt data after 0 decoded bytes; its rules were read from the body as it came, which is plain text');
});

test('a coded robots.txt that does not decode to its end, and is no plain text: unreachable, then disallow-all, never permission', async () => {
  // The rules after a long comment, so that the damage comes before them.
  const long = Buffer.from(`# ${'a comment line of the robots.txt\n# '.repeat(3000)}\n${RULES}`);
  const gz = gzipSync(long);
  const cases: [string, HttpExchange][] = [
    ['gzip damaged midway', answer(gzipDamagedAfterFirstBlock(long).bytes, { 'content-encoding': 'gzip' })],
    ['gzip cut off, every byte received', answer(gz.subarray(0, gz.length >> 1), { 'content-encoding': 'gzip' })],
    ['a coding the crawl does not undo', answer(brotliCompressSync(RULES), { 'content-encoding': 'zstd' })],
    ['bytes that are no gzip', answer(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), { 'content-encoding': 'gzip' })],
  ];
  for (const [label, exchange] of cases) {
    assert.deepEqual((await verdictsOverTries(exchange)).map((v) => v.reason), unreachableThenUnavailable, label);
    assert.match(await robotsCaptureMessage(exchange), /^robots\.txt; Content-Encoding "(gzip|zstd)"[ :].*, and the body as it came is no plain text: robots\.txt is unreadable, taken as unreachable as a 5xx answer is$/, label);
  }
});

test('a coded robots.txt decoded to its end, or cut at the size cap, is read as it decodes', async () => {
  const gz = gzipSync(RULES + `# ${'x'.repeat(100_000)}\n`);
  assert.deepEqual(await verdictsOverTries(answer(Buffer.concat([gzipSync(RULES), Buffer.from('GARBAGE')]), { 'content-encoding': 'gzip' })), disallowed, 'bytes after the member');
  assert.deepEqual(await verdictsOverTries(answer(gz.subarray(0, gz.length >> 1), { 'content-encoding': 'gzip' }, 'length')), disallowed, 'cut at the size cap');
  assert.equal(await robotsCaptureMessage(answer(gzipSync(RULES), { 'content-encoding': 'gzip' })), 'robots.txt');
});
