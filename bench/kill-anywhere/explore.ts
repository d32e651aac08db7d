// The crash explorer: runs the CLI on one --out again and again, SIGKILLing it at planned moments
// (plan.ts) and in its closing phase, lets a last run finish, then checks what issue 3 promises of a
// killed crawl: it completes, every page is captured exactly once, every WARC file and index line
// reads back whole (invariants.ts). Shared by bench/kill-anywhere.ts and its integration test.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, watch } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { verifyCdxj, verifyWarcFile, parseCdxjLine, INDEX_NAME } from '../../worker/warc';
import { runCli } from '../../test/support/run-cli';
import { warcTargets } from '../../test/support/warc-targets';
import { mulberry32 } from '../support/mulberry32';
import { killSite } from './site';
import { planKill, landingOf, type Landing, type PlannedKill, type RunTimings } from './plan';
import { countEach, exactlyOnceViolations, indexCoverageViolations, isRobotsTxt, leftoverViolations } from './invariants';

export interface ExploreOptions {
  /** Kills at planned moments (planKill). */
  kills: number;
  /** Kills when a closing-phase file appears (a WARC file closed, the index sorted or recovered, the crawl log written). */
  closingKills: number;
  /** HTML pages of the site (at least 24); requisites, copies and large files come on top. */
  pages: number;
  seed: number;
  /** Delay of every answer of the site, ms. */
  siteDelayMs: number;
  concurrency: number;
  /** Keeps the work folder (the output folders) even when nothing was found; with violations it is always kept. */
  keep?: boolean;
  /** Hears a line per run, for a person watching. */
  log?: (line: string) => void;
}

/** One run of the CLI that a kill was aimed at. */
export interface KillRecord {
  run: number;
  /** `planned` (`planned` says when) or `closing` (when a file of `trigger` appeared). */
  aim: 'planned' | 'closing';
  planned?: PlannedKill;
  trigger?: string;
  /** The file whose appearance set off a closing kill. */
  triggeredBy?: string;
  landing: Landing;
  /** When the site saw the run's first request, ms after spawning; null: it saw none. */
  firstRequestMs: number | null;
  /** Pages of the site the database had acknowledged before the run and after it. */
  capturedBefore: number;
  capturedAfter: number;
  /** Whether a WARC file was left open after the run. */
  openWarcLeft: boolean;
  exit: { code: number | null; signal: string | null };
}

export interface ExploreSummary {
  seed: number;
  sitePages: number;
  /** URLs a complete crawl captures, robots.txt apart. */
  expectedCaptures: number;
  timings: RunTimings;
  kills: KillRecord[];
  landings: Record<Landing, number>;
  finalRun: { code: number | null; signal: string | null; outcome: string | null; pages: number | null };
  warcFiles: number;
  records: { responsesAndRevisits: number; robotsTxt: number; indexLines: number };
  violations: string[];
  /** The work folder, when kept. */
  workDir?: string;
}

const STATE_DB = 'tidemark-state.db';

/** Files whose appearance marks a run's closing phase, tried in turn by the closing kills. */
const CLOSING_TRIGGERS: Array<{ name: string; file: RegExp }> = [
  // Also when a start-up closes the files a killed run left open.
  { name: 'warc-closed', file: /\.warc\.gz$/ },
  // The index sorted at the close, or the open one rewritten by a start-up's recovery.
  { name: 'index-sort', file: /^index\.cdxj(\.run-\d+|\.tmp|\.open\.tmp)?$/ },
  { name: 'crawl-log', file: /^crawl-log\.tsv\.tmp$/ },
];

/** Pages of the site the crawl's database acknowledged (robots.txt apart); null when it cannot be read yet (killed during migrations). */
function acknowledgedPages(out: string): number | null {
  const path = join(out, STATE_DB);
  if (!existsSync(path)) return 0;
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      const urls = db.prepare('SELECT DISTINCT url FROM Capture').pluck().all() as string[];
      return urls.filter((u) => !isRobotsTxt(u)).length;
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

/** How a run ended, and when the site saw its first request (ms after spawning; null: none). */
interface RunResult {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  firstRequestMs: number | null;
  /** What set off the kill, when it says. */
  detail?: string;
}

/** A run's kill, armed when the run starts: `onFirstRequest` is called at the site's first request of the run. Returns its disarming. */
type KillArming = (kill: (detail?: string) => void) => { onFirstRequest?: () => void; disarm: () => void };

/** Runs the CLI with `args` until it ends, or until its arming kills it. */
async function runOnce(server: Server, args: string[], arm?: KillArming): Promise<RunResult> {
  const startedAt = performance.now();
  const run = runCli(args);
  let detail: string | undefined;
  const armed = arm?.((d) => {
    detail ??= d;
    run.child.kill('SIGKILL');
  });
  let firstRequestMs: number | null = null;
  const onRequest = () => {
    firstRequestMs = performance.now() - startedAt;
    armed?.onFirstRequest?.();
  };
  server.once('request', onRequest);
  const done = await run.done;
  server.off('request', onRequest);
  armed?.disarm();
  return { ...done, firstRequestMs: firstRequestMs === null ? null : Math.round(firstRequestMs), detail };
}

/** Kills `delayMs` after spawning, or after the run's first request. */
const killAfter = (planned: PlannedKill): KillArming => (kill) => {
  let timer: NodeJS.Timeout | undefined;
  const start = () => (timer = setTimeout(() => kill(), planned.delayMs));
  if (planned.from === 'spawn') start();
  return { onFirstRequest: planned.from === 'first-request' ? start : undefined, disarm: () => clearTimeout(timer) };
};

/** Kills when a file of `trigger` appears in `out`. */
const killOnFile = (out: string, trigger: RegExp): KillArming => (kill) => {
  const watcher = watch(out, (_event, name) => {
    if (name && trigger.test(String(name)) && existsSync(join(out, String(name)))) kill(String(name));
  });
  return { disarm: () => watcher.close() };
};

/** The last line of a run's stdout, the --json summary, or null. */
function summaryOf(stdout: string): { outcome?: string; pages?: number; endedBy?: string } | null {
  try {
    return JSON.parse(stdout.trim().split('\n').pop() ?? '');
  } catch {
    return null;
  }
}

/** What the output folder holds, checked against the site's list of URLs. */
async function checkOutput(out: string, expected: string[]): Promise<{ violations: string[]; warcFiles: number; records: ExploreSummary['records'] }> {
  const violations: string[] = [];
  const names = readdirSync(out);
  violations.push(...leftoverViolations(names));
  const spool = join(out, '.tidemark-spool');
  if (existsSync(spool) && readdirSync(spool).length) violations.push(`left over after the final run: ${readdirSync(spool).length} files in .tidemark-spool`);
  const warcs = names.filter((n) => n.endsWith('.warc.gz')).sort();
  for (const name of warcs) {
    const check = await verifyWarcFile(join(out, name));
    violations.push(...check.errors.map((e) => `${name}: ${e}`));
  }
  const records = countEach(await warcTargets(out, ['response', 'revisit']));
  violations.push(...exactlyOnceViolations(expected, records, 'WARC files'));
  const db = new Database(join(out, STATE_DB), { readonly: true });
  try {
    const rows = db.prepare('SELECT url FROM Capture').pluck().all() as string[];
    violations.push(...exactlyOnceViolations(expected, countEach(rows), 'database'));
  } finally {
    db.close();
  }
  let indexLines = new Map<string, number>();
  if (!existsSync(join(out, INDEX_NAME))) violations.push(`no ${INDEX_NAME}`);
  else {
    const index = await verifyCdxj(join(out, INDEX_NAME), out);
    violations.push(...index.errors.map((e) => `${INDEX_NAME}: ${e}`));
    const lines = readFileSync(join(out, INDEX_NAME), 'utf8').split('\n').filter(Boolean);
    indexLines = countEach(lines.map((line) => parseCdxjLine(line)?.json.url ?? '(not CDXJ)'));
    violations.push(...indexCoverageViolations(records, indexLines));
  }
  const robotsTxt = [...records].filter(([url]) => isRobotsTxt(url)).reduce((sum, [, n]) => sum + n, 0);
  const total = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
  return { violations, warcFiles: warcs.length, records: { responsesAndRevisits: total(records), robotsTxt, indexLines: total(indexLines) } };
}

/**
 * Explores kills of the CLI crawling a loopback site (site.ts): a calibration run without kills
 * (timings, and a check that the site's list is what a crawl captures), `kills` planned kills and
 * `closingKills` closing-phase kills on one --out, a final run; then the invariants.
 */
export async function exploreKills(o: ExploreOptions): Promise<ExploreSummary> {
  const log = o.log ?? (() => undefined);
  const site = killSite(o.pages, o.seed, o.siteDelayMs);
  const server = createServer(site.listener);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const expected = site.paths.map((p) => origin + p);
  const workDir = mkdtempSync(join(tmpdir(), 'tm-kill-anywhere-'));
  const argsFor = (out: string) => ['crawl', '--seed', `${origin}/`, '--out', out, '--no-politeness', '--concurrency', String(o.concurrency), '--json'];
  const violations: string[] = [];
  try {
    // Calibration: an uninterrupted crawl of the same site into a folder of its own.
    const calibrationStart = performance.now();
    const calibrationOut = join(workDir, 'calibration');
    const calibration = await runOnce(server, argsFor(calibrationOut));
    const wallMs = performance.now() - calibrationStart;
    const calibrationSummary = summaryOf(calibration.stdout);
    if (calibration.code !== 0 || calibrationSummary?.outcome !== 'finished') throw new Error(`the calibration crawl did not finish (exit ${calibration.code}): ${calibration.stderr.slice(-500)}`);
    violations.push(...exactlyOnceViolations(expected, countEach(await warcTargets(calibrationOut, ['response', 'revisit'])), 'calibration crawl'));
    const startupMs = Math.max(1, calibration.firstRequestMs ?? 1);
    const timings: RunTimings = { startupMs, crawlMs: Math.max(1, Math.round(wallMs - startupMs)) };
    log(`calibration: ${Math.round(wallMs)} ms, its first request after ${timings.startupMs} ms, ${expected.length} URLs`);

    const out = join(workDir, 'crawl');
    // The closing kills watch it, even when no planned kill ran before them.
    mkdirSync(out);
    const rand = mulberry32(o.seed);
    const kills: KillRecord[] = [];
    let captured = 0;
    const record = (k: Pick<KillRecord, 'aim' | 'planned' | 'trigger'>, done: RunResult) => {
      const after = acknowledgedPages(out) ?? captured;
      const killed = done.signal === 'SIGKILL';
      const entry: KillRecord = {
        run: kills.length + 1, ...k, ...(done.detail ? { triggeredBy: done.detail } : {}),
        landing: landingOf({ killed, requested: done.firstRequestMs !== null, capturedAfter: after, expected: expected.length }),
        firstRequestMs: done.firstRequestMs, capturedBefore: captured, capturedAfter: after,
        openWarcLeft: readdirSync(out).some((n) => n.endsWith('.warc.gz.open')), exit: { code: done.code, signal: done.signal },
      };
      kills.push(entry);
      captured = after;
      const aim = entry.planned ? `${entry.planned.delayMs} ms after ${entry.planned.from}` : `at ${entry.trigger}`;
      log(`run ${entry.run}: ${aim} → ${entry.landing} (first request ${entry.firstRequestMs ?? '-'} ms), ${entry.capturedBefore} → ${entry.capturedAfter} pages`);
    };
    for (let k = 0; k < o.kills; k++) {
      const planned = planKill(rand, timings, 1 - captured / expected.length, o.kills - k);
      record({ aim: 'planned', planned }, await runOnce(server, argsFor(out), killAfter(planned)));
    }
    for (let k = 0; k < o.closingKills; k++) {
      const trigger = CLOSING_TRIGGERS[k % CLOSING_TRIGGERS.length]!;
      record({ aim: 'closing', trigger: trigger.name }, await runOnce(server, argsFor(out), killOnFile(out, trigger.file)));
    }

    const final = await runOnce(server, argsFor(out));
    const finalSummary = summaryOf(final.stdout);
    if (final.code !== 0 || finalSummary?.outcome !== 'finished' || finalSummary.endedBy) {
      violations.push(`the final run did not complete the crawl: exit ${final.code ?? final.signal}, outcome ${finalSummary?.outcome ?? '(no summary)'}${finalSummary?.endedBy ? `, ended by ${finalSummary.endedBy}` : ''}; ${final.stderr.slice(-300)}`);
    }
    const checked = await checkOutput(out, expected);
    violations.push(...checked.violations);
    const landings: Record<Landing, number> = { 'start-up': 0, 'mid-crawl': 0, complete: 0, 'not-killed': 0 };
    for (const k of kills) landings[k.landing] += 1;
    const kept = o.keep || violations.length > 0;
    return {
      seed: o.seed, sitePages: o.pages, expectedCaptures: expected.length, timings, kills, landings,
      finalRun: { code: final.code, signal: final.signal, outcome: finalSummary?.outcome ?? null, pages: finalSummary?.pages ?? null },
      warcFiles: checked.warcFiles, records: checked.records, violations, ...(kept ? { workDir } : {}),
    };
  } finally {
    await new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
    if (!o.keep && violations.length === 0) rmSync(workDir, { recursive: true, force: true });
  }
}
