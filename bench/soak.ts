/**
 * Soak test of the cockpit: does anything grow without bound when it runs for weeks?
 *
 *   node --import tsx bench/soak.ts [--rounds 200] [--sample-every 10] [--lanes 2] [--kill-every 40] [--snapshots] [--session-hours H] [--keep] [--out DIR]
 *
 * Starts the real cockpit (server.ts, its crawl worker, a fresh data folder, free ports) with each
 * process's inspector on a free loopback port, serves small fixture sites on loopback, and cycles:
 * each round signs in anew, runs `--lanes` crawls at once through the scenarios of
 * soak-scenarios.ts (finish, pause–resume–stop, stop, focused, visit–revisit, pause-then-delete,
 * the awkward site, a bulky site whose export download is given up half-way), exports, downloads
 * and deletes them, with the crawl page's polls and socket.io tabs open; every `--kill-every`
 * rounds the worker is killed with SIGKILL mid-round. Every `--sample-every` rounds, with no crawl
 * left, it records (soak-metrics.ts) RSS, heap after GC, threads, descriptors by kind, timers and
 * handles, event-loop delay, live EventEmitters, socket.io rooms; the database's files and rows (and
 * rows of deleted crawls); files left in the data folder. Samples go to DIR/samples.jsonl (default
 * bench/work/soak-<time>/); `--snapshots` also writes heap snapshots of both processes at the
 * second sample and the last, and prints the constructors whose instances grew most (taking one
 * raises the server's RSS by ~190 MB for good: compare RSS over runs without it).
 * `--session-hours` sets TIDEMARK_SESSION_HOURS (each round signs in anew; a short lifetime shows
 * whether expired sessions are ever deleted).
 */
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startCockpit, ADMIN_PASSWORD } from '../test/support/cockpit';
import { ApiClient } from '../test/support/api-client';
import { startFixtureSite } from '../test/support/fixture-site';
import { startAwkwardSite } from '../test/support/awkward-site';
import { startTopicalSite } from '../test/support/topical-site';
import { newCounters, runScenario, type ScenarioName, type SoakIcds } from './support/soak-scenarios';
import { ProcessProbe, liveIds, sampleDataDir, sampleDatabase, workerPidOf, type Sample } from './support/soak-metrics';
import { summariseHeapSnapshot } from './support/inspector';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const ROUNDS = option('rounds', 200);
const SAMPLE_EVERY = option('sample-every', 10);
const LANES = option('lanes', 2);
const KILL_EVERY = option('kill-every', 40);
const outIndex = args.indexOf('--out');
const OUT = outIndex >= 0 ? args[outIndex + 1]! : join('bench/work', `soak-${new Date().toISOString().replace(/[:.]/g, '-')}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const SCHEDULE: ScenarioName[] = ['finish', 'pause-resume', 'stop', 'focused', 'revisit', 'paused-delete', 'finish', 'bulky', 'stop', 'awkward'];

/** 30 pages of 200 KB of incompressible text, linked as a chain: exports of several MB. */
async function startBulkySite(): Promise<{ origin: string; close(): Promise<void> }> {
  const body = (i: number) => `<!doctype html><title>Bulky ${i}</title>${i < 29 ? `<a href="/b/${i + 1}.html">next</a>` : ''}<pre>${randomBytes(150_000).toString('base64')}</pre>`;
  const server = createServer((req, res) => {
    const m = /^\/(?:b\/(\d+)\.html)?$/.exec(req.url ?? '');
    if (!m) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(body(Number(m[1] ?? 0)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

async function createIcds(api: ApiClient, sites: Record<'small' | 'slow' | 'topical' | 'awkward' | 'bulky', string>): Promise<SoakIcds> {
  const quick = { minDelayMs: 0, maxDelayMs: 100, delayFactor: 0, concurrency: 4 };
  const create = async (icd: Record<string, unknown>) => (await api.json<{ id: number }>('POST', '/api/icds', icd)).id;
  return {
    small: await create({ name: 'Soak small', seeds: [`${sites.small}/`], politeness: quick }),
    slow: await create({ name: 'Soak slow', seeds: [`${sites.slow}/`], politeness: { ...quick, concurrency: 2 } }),
    focused: await create({
      name: 'Soak focused', seeds: [`${sites.topical}/`], politeness: quick,
      focus: { enabled: true, language: 'eng', keywords: [{ term: 'tide', weight: 2 }, { term: 'estuary', weight: 1 }], relevanceWindow: 10 },
    }),
    revisit: await create({ name: 'Soak revisit', seeds: [`${sites.small}/`], politeness: quick, coherence: { mode: 'visit-revisit' } }),
    awkward: await create({ name: 'Soak awkward', seeds: [`${sites.awkward}/`], politeness: quick, scope: { maxPages: 60, maxOutLinksPerPage: 100 }, limits: { maxBodyBytes: 2 * 1024 * 1024, totalTimeoutMs: 5000, maxRetries: 0 } }),
    bulky: await create({ name: 'Soak bulky', seeds: [`${sites.bulky}/`], politeness: quick }),
  };
}

function summary(s: Sample): string {
  const p = (x: Sample['server']) => (x ? `${x.rssMb}/${x.heapMb ?? '?'} MB ${x.threads}t ${x.fds}fd` : '—');
  return `round ${String(s.round).padStart(4)}  server ${p(s.server)}  worker ${p(s.worker)}  db ${s.db.dbKb} KB wal ${s.db.walKb} KB  files ${s.data.files} left ${s.data.leftovers.length}  orphans ${JSON.stringify(s.db.orphans)}  sio ${JSON.stringify(s.server?.socketIo ?? {})}`;
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const small = await startFixtureSite({ pageCount: 25, delayMs: 5 });
  const slow = await startFixtureSite({ pageCount: 120, delayMs: 30 });
  const topical = await startTopicalSite(15, { delayMs: 5 });
  const awkward = await startAwkwardSite();
  const bulky = await startBulkySite();
  const sessionHours = option('session-hours', 0);
  const cockpit = await startCockpit({ NODE_OPTIONS: '--inspect=127.0.0.1:0', TIDEMARK_DEMO_PORT: '0', ...(sessionHours > 0 ? { TIDEMARK_SESSION_HOURS: String(sessionHours) } : {}) });
  const dbPath = join(cockpit.dataDir, 'tidemark.db');
  const probe = new ProcessProbe(cockpit.output);
  console.log(`soak: cockpit ${cockpit.url} (pid ${cockpit.process.pid}), data ${cockpit.dataDir}, out ${OUT}`);
  const admin = await ApiClient.signedIn(cockpit.url, 'admin', ADMIN_PASSWORD);
  const icds = await createIcds(admin, { small: small.origin, slow: slow.origin, topical: topical.origin, awkward: awkward.origin, bulky: bulky.origin });

  const samples: Sample[] = [];
  const snapshotAt = new Set<number>();
  const takeSample = async (round: number): Promise<Sample> => {
    await sleep(1500); // the worker's tick and the batcher's flush settle
    const serverPid = cockpit.process.pid!;
    const workerPid = workerPidOf(serverPid);
    const s: Sample = {
      round,
      at: new Date().toISOString(),
      server: await probe.sample(serverPid, cockpit.dataDir, 'server'),
      worker: await probe.sample(workerPid, cockpit.dataDir, 'worker'),
      db: sampleDatabase(dbPath),
      data: sampleDataDir(cockpit.dataDir, liveIds(dbPath)),
    };
    samples.push(s);
    appendFileSync(join(OUT, 'samples.jsonl'), JSON.stringify(s) + '\n');
    console.log(summary(s));
    if (flag('snapshots') && (samples.length === 2 || round === ROUNDS)) {
      for (const [role, pid] of [['server', serverPid], ['worker', workerPid]] as const) {
        const inspector = pid ? await probe.inspector(pid) : null;
        if (!inspector) continue;
        const path = join(OUT, `${role}-${round}.heapsnapshot`);
        await inspector.writeHeapSnapshot(path);
        snapshotAt.add(round);
      }
    }
    return s;
  };

  await takeSample(0);
  const totals = newCounters();
  const started = Date.now();
  for (let round = 1; round <= ROUNDS; round++) {
    const api = await ApiClient.signedIn(cockpit.url, 'admin', ADMIN_PASSWORD);
    const counters = newCounters();
    const env = { api, baseUrl: cockpit.url, icds, counters, timeoutMs: 120_000 };
    const lanes = Array.from({ length: LANES }, (_, lane) => {
      const name = SCHEDULE[(round + lane * 5) % SCHEDULE.length]!;
      return runScenario(env, name, round + lane).catch((err: Error) => void counters.errors.push(`${name}: ${err.message}`));
    });
    if (KILL_EVERY > 0 && round % KILL_EVERY === KILL_EVERY / 2) {
      await sleep(1500);
      const pid = workerPidOf(cockpit.process.pid!);
      if (pid) {
        process.kill(pid, 'SIGKILL');
        console.log(`soak: round ${round}: killed crawl worker ${pid}`);
      }
    }
    await Promise.all(lanes);
    if (round % 2 === 0) await (await api.request('POST', '/api/auth/logout')).body?.cancel();
    for (const key of Object.keys(totals) as (keyof typeof totals)[]) {
      if (key === 'errors') totals.errors.push(...counters.errors.map((e) => `round ${round}: ${e}`));
      else totals[key] += counters[key];
    }
    for (const e of counters.errors) console.log(`soak: round ${round}: ${e}`);
    // The fixture sites' request logs are the driver's, not the cockpit's: keep them from growing.
    small.requests.length = slow.requests.length = topical.requests.length = awkward.requests.length = 0;
    if (round % SAMPLE_EVERY === 0 || round === ROUNDS) await takeSample(round);
  }
  const { errors, ...counts } = totals;
  console.log(`soak: ${ROUNDS} rounds in ${((Date.now() - started) / 60_000).toFixed(1)} min: ${JSON.stringify(counts)}, ${errors.length} errors`);
  writeFileSync(join(OUT, 'summary.json'), JSON.stringify({ rounds: ROUNDS, lanes: LANES, killEvery: KILL_EVERY, counts, errors, dataDir: cockpit.dataDir }, null, 2));

  if (snapshotAt.size === 2) {
    const [first, last] = [...snapshotAt];
    for (const role of ['server', 'worker']) {
      try {
        const a = summariseHeapSnapshot(readFileSync(join(OUT, `${role}-${first}.heapsnapshot`), 'utf8'));
        const b = summariseHeapSnapshot(readFileSync(join(OUT, `${role}-${last}.heapsnapshot`), 'utf8'));
        const grown = [...b].map(([name, v]) => ({ name, count: v.count - (a.get(name)?.count ?? 0), bytes: v.bytes - (a.get(name)?.bytes ?? 0) })).sort((x, y) => y.bytes - x.bytes).slice(0, 25);
        console.log(`soak: ${role} heap, round ${first} → ${last}, most grown constructors:`);
        for (const g of grown) console.log(`  ${g.name.slice(0, 60).padEnd(60)} ${String(g.count).padStart(8)} objects ${String(Math.round(g.bytes / 1024)).padStart(8)} KB`);
      } catch (err) {
        console.log(`soak: ${role} heap comparison failed: ${(err as Error).message}`);
      }
    }
  }
  probe.close();
  await cockpit.stop();
  await Promise.all([small.close(), slow.close(), topical.close(), awkward.close(), bulky.close()]);
  if (flag('keep')) console.log(`soak: data folder kept at ${cockpit.dataDir}`);
  else rmSync(cockpit.dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
