import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cand, drain, tempFrontier } from './frontier-fixture';
import { mulberry32 } from '../../../bench/support/mulberry32';
import { SCORE_FLUSH_MS, type Lease, type UpdateFunction } from '../../../worker/frontier';
import { applyUpdate, firstScore, precedenceOf, type ScoreState } from '../../../worker/frontier/update-functions';

const u = (n: number) => `http://a.test/${n}`;

test('URLs come out by priority, then in discovery order', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const f = fx.open();
  f.add(1, [cand(u(1), 0.2), cand(u(2), 0.9), cand(u(3), 0.5), cand(u(4), 0.9), cand(u(5), 0.5)]);
  assert.deepEqual(drain(f, fx.clock.now()), [u(2), u(4), u(3), u(5), u(1)]);
  f.close();
});

test('raising or lowering a queued URL in place changes what next() returns', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const f = fx.open();
  f.add(1, [cand(u(1), 0.5), cand(u(2), 0.4), cand(u(3), 0.3)]);
  assert.equal(f.updatePriority(1, u(3), 0.95), true);
  assert.equal(f.updatePriority(1, u(1), 0.1), true, 'lowering the head');
  assert.deepEqual(drain(f, fx.clock.now()), [u(3), u(2), u(1)]);
  assert.equal(f.updatePriority(1, u(1), 1), false, 'a done URL is not requeued');
  f.close();
});

for (const rescoring of [false, true]) {
  test(`priority changes move hosts against each other too, also when a host's head stays its head (rescoring ${rescoring})`, (t) => {
    const fx = tempFrontier({ rescoring });
    t.after(fx.cleanup);
    const f = fx.open();
    f.add(1, [cand('http://a.test/x', 0.6), cand('http://b.test/y', 0.5)]);
    f.updatePriority(1, 'http://b.test/y', 0.7);
    assert.equal(f.next(fx.clock.now())?.url, 'http://b.test/y');
    f.add(1, [cand('http://c.test/z', 0.5), cand('http://a.test/x', 0.2)], { update: 'AVG' }); // a.test's only URL: 0.6 → 0.4
    assert.equal(f.next(fx.clock.now())?.url, 'http://c.test/z', 'a.test now leads with 0.4, behind c.test');
    f.close();
  });
}

test('each update function changes the order as it should when a queued URL is found again', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const f = fx.open();
  // X first scored 0.2, then 0.9 and 0.4; Y is a fixed 0.5. Which comes first?
  //   FIRST 0.2 → Y; LAST 0.4 → Y; MAX 0.9 → X; AVG 0.5 → tie, Y discovered first; SUM 1.5 (clamped 1) → X.
  const expected = { FIRST: 'Y', LAST: 'Y', MAX: 'X', AVG: 'Y', SUM: 'X' } as const;
  let crawl = 10;
  for (const [fn, first] of Object.entries(expected) as [keyof typeof expected, 'X' | 'Y'][]) {
    crawl += 1;
    f.openCrawl(crawl, fx.config);
    const X = `http://${fn.toLowerCase()}.test/x`;
    const Y = `http://${fn.toLowerCase()}.test/y`;
    f.add(crawl, [cand(Y, 0.5), cand(X, 0.2)]);
    assert.deepEqual(f.add(crawl, [cand(X, 0.9)], { update: fn }), { added: 0, duplicates: 1, budgetExcluded: 0 });
    f.rescore(crawl, X, 0.4, fn);
    const rec = f.lookup(crawl, X)!;
    // add() with FIRST writes nothing for a duplicate (the hot path); rescore() counts it.
    assert.equal(rec.scoreCount, fn === 'FIRST' ? 2 : 3);
    const got = f.next(fx.clock.now())!;
    assert.equal(got.url, first === 'X' ? X : Y, `${fn}: ${first} first`);
    if (fn === 'SUM') {
      assert.ok(Math.abs(rec.rawScore - 1.5) < 1e-9, 'SUM keeps the raw sum');
      assert.equal(rec.precedence, 1, 'but orders by the clamped value');
    }
    if (fn === 'AVG') assert.ok(Math.abs(rec.rawScore - 0.5) < 1e-9);
    f.closeCrawl(crawl);
  }
  f.close();
});

test('batch prioritisation takes the top bl URLs of one host at once', (t) => {
  const fx = tempFrontier({ politeness: { enabled: true, minDelayMs: 100, maxDelayMs: 1000, delayFactor: 0 } });
  t.after(fx.cleanup);
  const f = fx.open();
  f.add(1, [cand(u(1), 0.1), cand(u(2), 0.8), cand(u(3), 0.6), cand(u(4), 0.7), cand('http://b.test/1', 0.9)]);
  const now = fx.clock.now();
  const batch = f.takeBatch(1, 'a.test', 3, now);
  assert.deepEqual(batch.map((l) => l.url), [u(2), u(4), u(3)]);
  assert.deepEqual(f.takeBatch(1, 'a.test', 3, now), [], 'the host holds its key until the batch is back');
  f.complete(batch[0]!, { status: 200, durationMs: 10 });
  f.complete(batch[1]!, { status: 200, durationMs: 10 });
  assert.deepEqual(f.nextBatch(now, 5).map((l) => l.url), ['http://b.test/1'], 'other hosts go on');
  f.complete(batch[2]!, { status: 200, durationMs: 10 });
  assert.deepEqual(f.takeBatch(1, 'a.test', 3, now), [], 'then the delay applies');
  assert.deepEqual(f.takeBatch(1, 'a.test', 3, now + 110).map((l) => l.url), [u(1)]);
  f.close();
});

test('batch mode: provisional scores order URLs until the batch rescores them, and survive a restart', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  let f = fx.open();
  f.add(1, [cand(u(1), 0.5)], { update: 'AVG' });
  f.add(1, [cand(u(2), 0.9), cand(u(3), 0.3), cand(u(1), 0.1)], { update: 'AVG', provisional: true });
  assert.equal(f.lookup(1, u(2))!.scoreCount, 0, 'a new URL is provisional');
  assert.deepEqual([f.lookup(1, u(1))!.rawScore, f.lookup(1, u(1))!.scoreCount], [0.5, 1], 'a duplicate is left for the batch');
  // The process dies before the batch closes: the provisional scores are still there and still order the queue.
  f.close();
  f = fx.open();
  assert.equal(f.lookup(1, u(2))!.precedence, 0.9);
  // The batch closes: its score replaces a provisional one and joins a real one through the update function.
  f.rescore(1, u(2), 0.2, 'AVG', '{"batch":{"inLinks":1}}');
  f.rescore(1, u(3), 0.8, 'AVG');
  f.rescore(1, u(1), 0.7, 'AVG');
  assert.deepEqual([f.lookup(1, u(2))!.rawScore, f.lookup(1, u(2))!.scoreCount, f.lookup(1, u(2))!.breakdown], [0.2, 1, '{"batch":{"inLinks":1}}']);
  assert.ok(Math.abs(f.lookup(1, u(1))!.rawScore - 0.6) < 1e-12, 'AVG of 0.5 and the batch 0.7');
  assert.deepEqual(drain(f, fx.clock.now()), [u(3), u(1), u(2)]);
  f.close();
});

test('a URL found again is rescored while it waits in the queue, not once leased, and again once given back', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const f = fx.open();
  assert.equal(f.settled(1, u(1)), false, 'unknown');
  f.add(1, [cand(u(1), 0.2)]);
  f.add(1, [cand(u(1), 0.6)], { update: 'AVG' });
  assert.equal(f.lookup(1, u(1))!.scoreCount, 2, 'queued: the new score counts');
  assert.equal(f.settled(1, u(1)), false, 'waiting in the queue');
  const lease = f.next(fx.clock.now())!;
  assert.equal(f.settled(1, u(1)), true, 'in flight: no score can move it');
  assert.deepEqual(f.add(1, [cand(u(1), 1)], { update: 'AVG' }), { added: 0, duplicates: 1, budgetExcluded: 0 });
  assert.equal(f.lookup(1, u(1))!.scoreCount, 2, 'in flight: nothing to reorder');
  f.release(lease);
  assert.equal(f.settled(1, u(1)), false, 'given back');
  f.add(1, [cand(u(1), 1)], { update: 'AVG' });
  const rec = f.lookup(1, u(1))!;
  assert.equal(rec.scoreCount, 3, 'given back to the queue: rescored again');
  assert.ok(Math.abs(rec.rawScore - 0.6) < 1e-9, 'AVG of 0.2, 0.6 and 1');
  f.close();
});

test('a URL rescored past the head of its host queue is leased next, with its own depth, kind and referrer', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const f = fx.open();
  f.add(1, [cand(u(1), 0.5), cand(u(2), 0.3, { depth: 4, kind: 'embed', viaUrl: u(9) }), cand(u(3), 0.4)]);
  f.add(1, [cand(u(2), 1)], { update: 'AVG' }); // (0.3 + 1) / 2 = 0.65 > 0.5
  const lease = f.next(fx.clock.now())!;
  assert.deepEqual({ url: lease.url, depth: lease.depth, kind: lease.kind, viaUrl: lease.viaUrl }, { url: u(2), depth: 4, kind: 'embed', viaUrl: u(9) });
  assert.ok(Math.abs(lease.priority - 0.65) < 1e-9);
  f.complete(lease, { status: 200 });
  assert.deepEqual(drain(f, fx.clock.now()), [u(1), u(3)]);
  f.close();
});

test('after a restart, a queued URL found again is still rescored, and again after that', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const before = fx.open();
  before.add(1, [cand(u(1), 0.2), cand(u(2), 0.5)]);
  before.close();
  const f = fx.open(); // a new process: it knows no URL yet, the table does
  f.add(1, [cand(u(1), 0.8)], { update: 'AVG' });
  f.add(1, [cand(u(1), 0.8)], { update: 'AVG' });
  const rec = f.lookup(1, u(1))!;
  assert.equal(rec.scoreCount, 3);
  assert.ok(Math.abs(rec.rawScore - 0.6) < 1e-9, 'AVG of 0.2, 0.8 and 0.8');
  assert.deepEqual(drain(f, fx.clock.now()), [u(1), u(2)]);
  f.close();
});

test('a rescoring crawl writes a held URL\'s new score behind: at its lease, every SCORE_FLUSH_MS, and when the crawl closes', async (t) => {
  const fx = tempFrontier({ rescoring: true });
  t.after(fx.cleanup);
  const f = fx.open();
  const stored = (url: string) => fx.handles[0]!.prepare('SELECT score_raw FROM frontier_url WHERE url = ?').pluck().get(url) as number;
  f.add(1, [cand(u(1), 0.2), cand(u(2), 0.5), cand(u(3), 0.1), cand(u(4), 0.3)]);
  f.add(1, [cand(u(1), 0.8, { breakdown: '{"text":0.8}' })], { update: 'AVG' });
  assert.equal(stored(u(1)), 0.2, 'held: not written yet');
  const rec = f.lookup(1, u(1))!;
  assert.deepEqual([rec.rawScore, rec.scoreCount, rec.breakdown], [0.5, 2, '{"text":0.8}'], 'lookup sees the held score');
  const first = f.next(fx.clock.now())!;
  assert.equal(first.url, u(1), 'AVG 0.5 ties with u2 and was found first');
  assert.equal(stored(u(1)), 0.5, 'written with its lease');
  f.complete(first, { status: 200 });
  f.add(1, [cand(u(3), 0.9)], { update: 'AVG' });
  assert.equal(stored(u(3)), 0.1);
  await fx.clock.advanceTo(fx.clock.now() + SCORE_FLUSH_MS);
  assert.equal(f.next(fx.clock.now())?.url, u(2));
  assert.equal(stored(u(3)), 0.5, 'written by the flush that came due');
  f.add(1, [cand(u(4), 0.9)], { update: 'MAX' });
  assert.equal(stored(u(4)), 0.3);
  f.close();
  assert.equal(stored(u(4)), 0.9, 'written when the crawl closed');
  const again = fx.open();
  assert.deepEqual(drain(again, fx.clock.now()), [u(4), u(2), u(3)], 'after a restart, by the written scores (u2, in flight, is queued again)');
  again.close();
});

test('a rescoring crawl (whole queues held, scores written behind) leases exactly what a crawl holding only first URLs leases', (t) => {
  // Many hosts, many URLs found again, one URL or a batch at a time: the two frontiers must agree lease by lease.
  const leasesOf = (rescoring: boolean, bl: number): string[] => {
    const fx = tempFrontier({ rescoring });
    t.after(fx.cleanup);
    const f = fx.open();
    const random = mulberry32(7);
    const link = (depth: number, priority: number) => {
      const i = Math.floor(random() * 20_000);
      return cand(`http://h${i % 40}.test/${i}`, priority, { depth });
    };
    const out: string[] = [];
    f.add(1, Array.from({ length: 20 }, () => link(0, 0.5)));
    while (out.length < 1500) {
      const leases = bl > 1 ? f.nextBatch(fx.clock.now(), bl) : [f.next(fx.clock.now())].filter((l): l is Lease => l !== null);
      if (leases.length === 0) break;
      for (const l of leases) {
        out.push(`${l.url} ${l.priority}`);
        f.add(1, Array.from({ length: 20 }, () => link(1, Math.round(random() * 1000) / 1000)), { update: 'AVG' });
        f.complete(l, { status: 200 });
      }
    }
    f.close();
    return out;
  };
  for (const bl of [1, 3]) {
    const held = leasesOf(true, bl);
    assert.ok(held.length >= 1500);
    assert.deepEqual(held, leasesOf(false, bl), `bl = ${bl}`);
  }
});

for (const rescoring of [false, true]) {
  const mode = rescoring ? 'hosts hold whole queues and write scores behind' : 'hosts hold their first URLs';
  test(`random adds, rescores, exclusions, leases (one or a batch), give-backs and restarts keep every host queue in priority order (${mode})`, (t) => {
    // A reference model of the queues (a sorted list per host) checked against the frontier after
    // every step: the frontier keeps URLs of each host in memory and must keep them right.
    const fx = tempFrontier({ rescoring });
    t.after(fx.cleanup);
    const random = mulberry32(11);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const hosts = ['a.test', 'b.test', 'c.test'];
    const fns: UpdateFunction[] = ['FIRST', 'LAST', 'MAX', 'AVG', 'SUM'];
    type ModelUrl = { url: string; host: string; seq: number; state: 'queued' | 'leased' | 'settled'; score: ScoreState; lease?: Lease };
    const model = new Map<string, ModelUrl>();
    let nextSeq = 1;
    const score = () => Math.round(random() * 20) / 20; // ties happen: discovery order decides them
    const queueOrder = (a: ModelUrl, b: ModelUrl) => precedenceOf(b.score.raw) - precedenceOf(a.score.raw) || a.seq - b.seq;
    const modelQueue = (host: string) => [...model.values()].filter((m) => m.host === host && m.state === 'queued').sort(queueOrder);
    let f = fx.open();
    for (let step = 0; step < 3000; step++) {
      const r = random();
      if (r < 0.35) {
        const fn = pick(fns);
        const batch = Array.from({ length: 1 + Math.floor(random() * 4) }, () => cand(`http://${pick(hosts)}/${Math.floor(random() * 150)}`, score()));
        f.add(1, batch, { update: fn });
        for (const c of batch) {
          const m = model.get(c.url);
          if (!m) model.set(c.url, { url: c.url, host: c.host, seq: nextSeq++, state: 'queued', score: firstScore(c.priority) });
          else if (m.state === 'queued' && fn !== 'FIRST') m.score = applyUpdate(m.score, c.priority, fn);
        }
      } else if (model.size === 0) {
        continue;
      } else if (r < 0.5) {
        const m = pick([...model.values()]);
        const fn = pick(fns.slice(1));
        const s = score();
        assert.equal(f.rescore(1, m.url, s, fn), m.state === 'queued', `rescore ${m.url} (${m.state})`);
        if (m.state === 'queued') m.score = applyUpdate(m.score, s, fn);
      } else if (r < 0.55) {
        const m = pick([...model.values()]);
        assert.equal(f.excludeQueued(1, m.url, 'spam'), m.state === 'queued', `exclude ${m.url} (${m.state})`);
        if (m.state === 'queued') m.state = 'settled';
      } else if (r < 0.62) {
        // Across hosts (politeness off): the best queued URL of all, which needs every host's head right.
        const want = [...model.values()].filter((m) => m.state === 'queued').sort(queueOrder)[0];
        const lease = f.next(fx.clock.now());
        assert.equal(lease?.url, want?.url, `step ${step}: next URL of any host`);
        if (want && lease) Object.assign(want, { state: 'leased', lease });
      } else if (r < 0.85) {
        const host = pick(hosts);
        // Mostly one URL at a time; sometimes a batch (batch prioritisation's bl), small or longer than what a host holds.
        const bl = pick([1, 1, 1, 1, 3, 20]);
        const want = modelQueue(host).slice(0, bl);
        const leases = f.takeBatch(1, host, bl, fx.clock.now());
        assert.deepEqual(leases.map((l) => l.url), want.map((m) => m.url), `step ${step}: next URLs of ${host}`);
        leases.forEach((lease, i) => Object.assign(want[i]!, { state: 'leased', lease }));
      } else if (r < 0.97) {
        const leased = [...model.values()].filter((m) => m.state === 'leased');
        if (leased.length === 0) continue;
        const m = pick(leased);
        if (random() < 0.5) {
          f.release(m.lease!);
          m.state = 'queued';
        } else {
          f.complete(m.lease!, { status: 200, durationMs: 0 });
          m.state = 'settled';
        }
      } else {
        f.close(); // a restart: URLs in flight go back to the queue
        f = fx.open();
        for (const m of model.values()) if (m.state === 'leased') m.state = 'queued';
      }
      // The engine's budget reads the live state counts: they are counters()'s, and the model's.
      const c = f.counters(1);
      const states = { queued: c.queued, inFlight: c.inFlight, retrying: c.retrying, done: c.done, failed: c.failed, excluded: c.excluded };
      assert.deepEqual({ ...f.stateCounts(1) }, states, `step ${step}: state counts`);
      const inModel = (state: string) => [...model.values()].filter((m) => m.state === state).length;
      assert.deepEqual([c.queued, c.inFlight], [inModel('queued'), inModel('leased')], `step ${step}: queued and in flight`);
    }
    for (const host of hosts) {
      const rest: string[] = [];
      for (let l: Lease | undefined; (l = f.takeBatch(1, host, 1, fx.clock.now())[0]); ) rest.push(l.url);
      const want = modelQueue(host).map((m) => m.url);
      assert.deepEqual(rest, want, `what is left of ${host}, in order`);
    }
    f.close();
  });
}
