import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FetchOutcome } from '../../../worker/fetch';
import { RobotsCache } from '../../../worker/robots';

/**
 * The robots cache's rules for a host that gives no answer, on its injectable clock: fetchRobots
 * answers from a script (what a silent, hanging-up, refusing or recovered server's fetch returns),
 * so ten minutes pass without waiting.
 */
const ORIGIN = 'http://silent.test';
const TEN_MINUTES = 600_000;

const silence: FetchOutcome = { ok: false, reason: 'headers-timeout', message: 'headers timeout after 20000 ms', durationMs: 60_000, retries: 2 };
const hangUp: FetchOutcome = { ok: false, reason: 'connection-reset', message: 'other side closed', durationMs: 5, retries: 2, bytesRead: 0 };
const refused: FetchOutcome = { ok: false, reason: 'connect-refused', message: 'connect ECONNREFUSED', durationMs: 1, retries: 2 };
const fivexx: FetchOutcome = { ok: false, reason: 'http-5xx', message: 'HTTP 503', durationMs: 1, retries: 2 };
function rules(text: string): FetchOutcome {
  const exchange = {
    url: `${ORIGIN}/robots.txt`, date: new Date(0), ip: '192.0.2.1', requestHead: Buffer.alloc(0), responseHead: Buffer.alloc(0), status: 200,
    headers: {}, body: { kind: 'memory' as const, bytes: Buffer.from(text) }, payloadDigest: 'sha1:X', truncated: null,
  };
  return { ok: true, exchange, durationMs: 1, retries: 0 };
}

/** A cache whose robots.txt fetches return `script`'s outcomes in turn (the last one again when it runs out). */
function scripted(script: FetchOutcome[]) {
  const state = { clock: 1_000_000, fetches: 0 };
  const robots = new RobotsCache({
    userAgent: 'Tidemark', enabled: true, ignoreFor: [], maxAttempts: 3, backoff: { baseMs: 30_000, maxMs: 600_000 },
    now: () => state.clock, random: () => 0.5,
    fetchRobots: async () => script[Math.min(state.fetches++, script.length - 1)]!,
  });
  return { robots, state };
}

/** The first settle of a silent host: a try, a backoff, a second try, then its URLs fail. */
async function settleSilent(robots: RobotsCache, state: { clock: number }) {
  const first = await robots.check(`${ORIGIN}/a`);
  assert.equal(first.reason, 'robots-retry');
  state.clock = first.retryAt!;
  const second = await robots.check(`${ORIGIN}/a`);
  assert.equal(second.reason, 'host-unreachable');
  assert.equal(second.failure?.silentTries, 2);
}

for (const [name, outcome] of [['silent (headers timeout)', silence], ['hanging up (nothing received)', hangUp]] as const) {
  test(`a host settled as ${name}: after the ten minutes, one try; no answer again settles it again at once, for another ten minutes`, async () => {
    const { robots, state } = scripted([outcome]);
    await settleSilent(robots, state);
    assert.equal(state.fetches, 2);
    state.clock += TEN_MINUTES;
    const again = await robots.check(`${ORIGIN}/b`);
    assert.deepEqual(again, { allowed: false, reason: 'host-unreachable', failure: { reason: outcome.reason, message: outcome.message, silentTries: 3 } }, 'no backoff and second try');
    assert.equal(state.fetches, 3, 'one try after the period, not two');
    state.clock += TEN_MINUTES - 1;
    assert.equal((await robots.check(`${ORIGIN}/c`)).reason, 'host-unreachable');
    assert.equal(state.fetches, 3, 'settled again for ten minutes');
    state.clock += 1;
    assert.equal((await robots.check(`${ORIGIN}/d`)).failure?.silentTries, 4);
    assert.equal(state.fetches, 4);
  });
}

test('a host settled as silent that answers 5xx after the ten minutes: the tries and backoffs of a 5xx, then disallow-all', async () => {
  const { robots, state } = scripted([silence, silence, fivexx]);
  await settleSilent(robots, state);
  state.clock += TEN_MINUTES;
  const first = await robots.check(`${ORIGIN}/b`);
  assert.equal(first.reason, 'robots-retry', 'an answer: not settled as silent');
  state.clock = first.retryAt!;
  const second = await robots.check(`${ORIGIN}/b`);
  assert.equal(second.reason, 'robots-retry');
  state.clock = second.retryAt!;
  assert.deepEqual(await robots.check(`${ORIGIN}/b`), { allowed: false, reason: 'robots-unavailable' });
  assert.equal(state.fetches, 5);
});

test('a host settled as silent whose robots.txt is read after the ten minutes: its rules apply', async () => {
  const { robots, state } = scripted([silence, silence, rules('User-agent: *\nDisallow: /private/\n')]);
  await settleSilent(robots, state);
  state.clock += TEN_MINUTES;
  assert.deepEqual(await robots.check(`${ORIGIN}/page`), { allowed: true });
  assert.equal((await robots.check(`${ORIGIN}/private/x`)).reason, 'robots-disallowed');
  assert.equal(state.fetches, 3);
});

test('a host settled with no connection (refused) that then accepts and says nothing: settled again after its one try', async () => {
  const { robots, state } = scripted([refused, silence]);
  assert.equal((await robots.check(`${ORIGIN}/a`)).failure?.reason, 'connect-refused');
  state.clock += TEN_MINUTES;
  const again = await robots.check(`${ORIGIN}/a`);
  assert.equal(again.reason, 'host-unreachable');
  assert.deepEqual(again.failure, { reason: 'headers-timeout', message: silence.message, silentTries: 1 });
  assert.equal(state.fetches, 2);
});

test('a first try that is silent still gets the one later try (SILENT_TRIES), the settle rule applies only after a settle', async () => {
  const { robots } = scripted([silence]);
  assert.equal((await robots.check(`${ORIGIN}/a`)).reason, 'robots-retry');
});

// Found by an exploratory session (time): the retry time, set before a wall clock was set back an
// hour, held the host's URLs for that hour; a host settled as unreachable failed its URLs for as long.
test('robots.txt waiting to be tried again, or a host settled as unreachable, is tried at once when the clock was set back an hour', async () => {
  const HOUR = 3_600_000;
  const { robots, state } = scripted([fivexx, rules('User-agent: *\nDisallow: /private\n')]);
  const first = await robots.check(`${ORIGIN}/a`);
  assert.equal(first.reason, 'robots-retry');
  assert.equal(first.retryAt, 1_000_000 + 22_500, 'a backoff of 15–30 s');
  state.clock -= HOUR;
  assert.deepEqual(await robots.check(`${ORIGIN}/a`), { allowed: true }, 'asked again now: its rules apply');
  assert.equal(state.fetches, 2);
  assert.deepEqual(await robots.check(`${ORIGIN}/private/b`), { allowed: false, reason: 'robots-disallowed' }, 'rules read on the clock as it is now are kept');
  assert.equal(state.fetches, 2);

  const unreachable = scripted([refused, rules('User-agent: *\nDisallow:\n')]);
  assert.equal((await unreachable.robots.check(`${ORIGIN}/a`)).reason, 'host-unreachable');
  unreachable.state.clock -= HOUR;
  assert.deepEqual(await unreachable.robots.check(`${ORIGIN}/a`), { allowed: true });
  assert.equal(unreachable.state.fetches, 2);
});
