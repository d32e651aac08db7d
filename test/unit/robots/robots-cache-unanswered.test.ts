import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FetchOutcome } from '../../../worker/fetch';
import { RobotsCache } from '../../../worker/robots';

/**
 * The robots cache tells the crawler of each robots.txt request that got nothing to archive, with
 * what follows from the origin's new state (onUnanswered), on its injectable clock; never of one a
 * pause cut off, nor of one whose answer (a 503) is archived.
 */
const ORIGIN = 'http://down.test';
const timeout: FetchOutcome = { ok: false, reason: 'headers-timeout', message: 'headers timeout after 500 ms', durationMs: 500, retries: 0 };
const refused: FetchOutcome = { ok: false, reason: 'connect-refused', message: 'connect ECONNREFUSED', durationMs: 1, retries: 1 };
const interrupted: FetchOutcome = { ok: false, reason: 'interrupted', message: 'paused', durationMs: 3, retries: 0 };
function answer(status: number, text: string): FetchOutcome {
  const exchange = {
    url: `${ORIGIN}/robots.txt`, date: new Date(0), ip: '192.0.2.1', requestHead: Buffer.alloc(0), responseHead: Buffer.alloc(0), status,
    headers: {}, body: { kind: 'memory' as const, bytes: Buffer.from(text) }, payloadDigest: 'sha1:X', truncated: null,
  };
  return status < 300 ? { ok: true, exchange, durationMs: 1, retries: 0 } : { ok: false, reason: 'http-5xx', message: `HTTP ${status}`, durationMs: 1, retries: 0, partial: exchange };
}

function scripted(script: FetchOutcome[]) {
  const state = { clock: 1_000_000, fetches: 0 };
  const told: { url: string; reason: string; next: string }[] = [];
  const robots = new RobotsCache({
    userAgent: 'Tidemark', enabled: true, ignoreFor: [], maxAttempts: 3, backoff: { baseMs: 30_000, maxMs: 600_000 }, maxAgeMs: 3_600_000,
    now: () => state.clock, random: () => 0.5,
    fetchRobots: async () => script[Math.min(state.fetches++, script.length - 1)]!,
    onUnanswered: (url, failure, next) => void told.push({ url, reason: failure.reason, next }),
  });
  return { robots, state, told };
}

test('a pause, then a 503 (archived), then a timeout: only the timeout is told, with the retry to come', async () => {
  const { robots, state, told } = scripted([interrupted, answer(503, ''), timeout]);
  assert.equal((await robots.check(`${ORIGIN}/a`)).retryAt, state.clock, 'cut off: asked again now');
  const after503 = await robots.check(`${ORIGIN}/a`);
  state.clock = after503.retryAt!;
  const afterTimeout = await robots.check(`${ORIGIN}/a`);
  assert.deepEqual(told, [{ url: `${ORIGIN}/robots.txt`, reason: 'headers-timeout', next: `robots.txt is tried again in ${Math.round((afterTimeout.retryAt! - state.clock) / 1000)} s; the host's URLs wait` }]);
});

test('no connection settles the host for ten minutes; a refresh that fails keeps the rules; tries spent disallow', async () => {
  const settled = scripted([refused]);
  await settled.robots.check(`${ORIGIN}/a`);
  assert.deepEqual(settled.told.map((t) => t.next), ["the host's URLs fail with this reason, unrequested, for 10 min; then robots.txt is tried again"]);

  const refresh = scripted([answer(200, 'User-agent: *\nDisallow: /x\n'), refused]);
  await refresh.robots.check(`${ORIGIN}/a`);
  refresh.state.clock += 3_600_000;
  assert.equal((await refresh.robots.check(`${ORIGIN}/x`)).reason, 'robots-disallowed');
  assert.deepEqual(refresh.told.map((t) => t.next), ['the rules read before stay in force; robots.txt is tried again in 60 min']);

  const spent = scripted([answer(503, ''), answer(503, ''), timeout]);
  for (let i = 0; i < 3; i++) {
    const verdict = await spent.robots.check(`${ORIGIN}/a`);
    if (verdict.retryAt) spent.state.clock = verdict.retryAt;
  }
  assert.deepEqual(spent.told.map((t) => t.next), ['its tries are spent: the host is treated as disallowing every URL (robots-unavailable)']);
});

test('a redirect\'s target that got no answer is told with the robots.txt that redirected to it, whose state follows', async () => {
  const moved = answer(200, '');
  if (!moved.ok) throw new Error('an answer');
  moved.exchange.status = 301;
  moved.exchange.headers = { location: 'http://other.test/robots.txt' };
  const { robots, told } = scripted([moved, refused]);
  await robots.check(`${ORIGIN}/a`);
  assert.deepEqual(told.map((t) => [t.url, t.reason]), [['http://other.test/robots.txt', 'connect-refused']]);
  assert.match(told[0]!.next, /^asked for http:\/\/down\.test\/robots\.txt, which redirected here: robots\.txt is tried again in \d+ s; the host's URLs wait$/);
});
