/**
 * Polite crawl rate (`npm run bench:politeness`, issue 3): 200 hosts on distinct loopback addresses
 * (127.0.1.1 – 127.0.1.200; Linux routes all of 127/8 to lo), one nginx with a `listen` line per address, each host
 * 25 HTML pages linked to one another plus a robots.txt. Tidemark's CLI crawls the 200 home pages with an ICD whose
 * per-host delay is exactly 200 ms (minDelayMs = maxDelayMs = 200, robots honoured) and concurrency 256.
 * Ideal: 200 hosts × 5 requests/s = 1,000 pages/s (each host's 25 pages take 25 × 200 ms after its robots.txt).
 * The rate and the per-host gaps come from nginx's access log (address, request start = $msec − $request_time):
 * pages/s = HTML pages ÷ (last request start − first request start) over all hosts; no two requests to one address
 * may start closer than 200 ms.
 *
 * Options: --hosts N (200) --pages N (25 per host) --delay MS (200) --concurrency N (256)
 * BENCH_CPU_PROF=dir: the CLI writes V8 CPU profiles (main thread and workers) there, to see where the time goes.
 * BENCH_KEEP_LOG=file: keeps a copy of nginx's access log.
 * Writes bench/results/politeness.json and its section of bench/README.md.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ICD_LIMITS } from '../worker/icd/schema';
import { startNginx, ensureAptTool } from './support/nginx';
import { measure } from './support/measure';
import { writeReadmeSection } from './support/readme-section';
import { benchCommit, cpuProfileArgs, machineInfo } from './support/run-info';
import { gapExcess } from './support/gap-excess';
import { parseProbeOnCores } from './support/cpu-probe';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const { values: args } = parseArgs({
  options: {
    hosts: { type: 'string', default: '200' },
    pages: { type: 'string', default: '25' },
    delay: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '256' },
  },
});
const HOSTS = Number(args.hosts);
const PAGES = Number(args.pages);
const DELAY = Number(args.delay);
const CONCURRENCY = Number(args.concurrency);
for (const [k, v] of Object.entries({ hosts: HOSTS, pages: PAGES, delay: DELAY, concurrency: CONCURRENCY })) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${k} must be a positive whole number`);
}
// One seed per host, and an ICD holds at most ICD_LIMITS.seeds (fewer than the 63,500 loopback addresses used).
if (HOSTS > ICD_LIMITS.seeds) throw new Error(`--hosts: at most ${ICD_LIMITS.seeds} (one seed each)`);
const addr = (i: number) => `127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`;
const addrs = Array.from({ length: HOSTS }, (_, i) => addr(i));

// ---------------------------------------------------------------------------------------------------------------
// The per-host site (every address serves the same files; links are root-relative so each host stays on itself).
const WORDS = 'harbour tide vessel record capture ledger coast estuary mariner charter cargo beacon lantern keel anchor voyage chart survey'.split(' ');
const pagePath = (i: number) => (i === 0 ? '/' : `/p/${i}.html`);
function writeSite(dir: string): number {
  mkdirSync(join(dir, 'p'), { recursive: true });
  writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\nDisallow: /private/\n');
  let bytes = 0;
  for (let i = 0; i < PAGES; i++) {
    const links = Array.from({ length: Math.min(20, PAGES - 1) }, (_, k) => pagePath((i + 1 + k * 7) % PAGES));
    const paras: string[] = [];
    for (let p = 0; p < 40; p++) {
      const text = Array.from({ length: 80 }, (_, k) => WORDS[(i * 31 + p * 7 + k * 13) % WORDS.length]).join(' ');
      paras.push(`<p>${text}${p < links.length ? ` <a href="${links[p]}">bulletin ${p}</a>` : ''}</p>`);
    }
    const html = `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Host page ${i}</title></head><body><h1>Page ${i}</h1>\n${paras.join('\n')}\n</body></html>\n`;
    bytes += html.length;
    writeFileSync(join(dir, i === 0 ? 'index.html' : pagePath(i).slice(1)), html);
  }
  return bytes;
}

// ---------------------------------------------------------------------------------------------------------------
if (!existsSync('/usr/bin/time')) ensureAptTool('/usr/bin/time', 'time'); // GNU time (apt-get, never under CI)
const base = mkdtempSync(join(tmpdir(), 'tidemark-bench-politeness-'));
const siteBytes = writeSite(join(base, 'site'));
const nginx = await startNginx({ root: join(base, 'site'), workDir: join(base, 'nginx'), listens: addrs });
for (const a of [addrs[0], addrs.at(-1)!]) {
  const r = await fetch(`http://${a}:${nginx.port}/robots.txt`);
  if (r.status !== 200) throw new Error(`nginx does not answer on ${a}`);
  await r.arrayBuffer();
}
const seeds = addrs.map((a) => `http://${a}:${nginx.port}/`);
const icd = {
  name: `bench politeness: ${HOSTS} hosts × ${PAGES} pages, ${DELAY} ms`,
  seeds,
  politeness: { enabled: true, respectRobots: true, minDelayMs: DELAY, maxDelayMs: DELAY, concurrency: CONCURRENCY },
};
const icdPath = join(base, 'icd.json');
writeFileSync(icdPath, JSON.stringify(icd, null, 2));
const logOffset = nginx.readLog().length; // the start-up probes above
const out = join(base, 'out');
const cmd = ['node', ...cpuProfileArgs(), join(root, 'bin/tidemark.js'), 'crawl', icdPath, '--out', out, '--json', '--concurrency', String(CONCURRENCY)];
// The VM's speed right before and after the crawl (bench/support/cpu-probe.ts): runs are read against it.
const probeBefore = await parseProbeOnCores(join(base, 'site'));
const loadBefore = loadavg();
console.error(`bench: crawling ${HOSTS} hosts × ${PAGES} pages with a ${DELAY} ms per-host delay…`);
const m = await measure(cmd, { cwd: root, timeoutMs: 30 * 60_000 });
const loadAfter = loadavg();
await nginx.stop();
if (m.exitCode !== 0) throw new Error(`tidemark exited ${m.exitCode}: ${m.stderr.slice(-2000)}`);
const summary = JSON.parse(m.stdout.trim().split('\n').filter((l) => l.startsWith('{')).at(-1)!) as {
  outcome: string; pages: number; failures: number; failuresByReason: Record<string, number>; durationSeconds: number; pagesPerSecond: number;
};

// ---------------------------------------------------------------------------------------------------------------
// The access log: `$server_addr $msec $request_time $status $body_bytes_sent $request_uri`.
interface Hit { addr: string; start: number; end: number; status: number; uri: string }
const accessLog = nginx.readLog();
// BENCH_KEEP_LOG=file: a copy of the access log (address, $msec, $request_time, status, bytes, URI) to study the gaps.
if (process.env.BENCH_KEEP_LOG) writeFileSync(process.env.BENCH_KEEP_LOG, accessLog.join('\n') + '\n');
const hits: Hit[] = accessLog
  .slice(logOffset)
  .map((line) => {
    const [a, msec, rt, status, , uri] = line.split(' ');
    const end = Number(msec) * 1000;
    return { addr: a, start: end - Number(rt) * 1000, end, status: Number(status), uri };
  });
const byAddr = new Map<string, Hit[]>();
for (const h of hits) (byAddr.get(h.addr) ?? byAddr.set(h.addr, []).get(h.addr)!).push(h);
let minGap = Infinity;
let minGapAt = '';
let violations = 0;
let overlaps = 0;
const perHostPages: number[] = [];
const gaps: number[] = [];
for (const [a, hs] of byAddr) {
  hs.sort((x, y) => x.start - y.start);
  perHostPages.push(hs.filter((h) => h.uri !== '/robots.txt' && h.status === 200).length);
  for (let i = 1; i < hs.length; i++) {
    const gap = hs[i].start - hs[i - 1].start;
    gaps.push(gap);
    if (gap < minGap) {
      minGap = gap;
      minGapAt = `${a} ${hs[i - 1].uri} → ${hs[i].uri}`;
    }
    // 1 ms slack: nginx logs $msec and $request_time at millisecond resolution.
    if (gap < DELAY - 1) violations++;
    if (hs[i].start < hs[i - 1].end - 1) overlaps++;
  }
}
// Where the time above the delay goes: the gap after robots.txt, after the seed page (whose links the host's
// next URLs are), and the later ones (bench/support/gap-excess.ts).
const excess = gapExcess([...byAddr.values()].map((hs) => hs.map((h) => h.start)), DELAY);
const laterGaps = excess.byPosition.slice(2);
const laterMean = laterGaps.length ? laterGaps.reduce((a, b) => a + b, 0) / laterGaps.length : 0;
const htmlHits = hits.filter((h) => h.uri !== '/robots.txt' && h.status === 200);
const first = Math.min(...hits.map((h) => h.start));
const last = Math.max(...hits.map((h) => h.start));
const spanS = (last - first) / 1000;
const ideal = (HOSTS * 1000) / DELAY;
const pagesPerSecond = htmlHits.length / spanS;
const result = {
  date: new Date().toISOString(),
  commit: benchCommit(root),
  machine: machineInfo(),
  // Two htmlparser2 parsers at once over this site's pages, a process each, for 1 s just before the crawl (pages/s each).
  machineSpeed: { twoParsersPagesPerSecond: probeBefore },
  loadAverage: { before: loadBefore.map((x) => Number(x.toFixed(2))), after: loadAfter.map((x) => Number(x.toFixed(2))) },
  settings: { hosts: HOSTS, pagesPerHost: PAGES, delayMs: DELAY, concurrency: CONCURRENCY, addresses: `${addrs[0]} – ${addrs.at(-1)}`, pageBytesMean: Math.round(siteBytes / PAGES) },
  command: cmd.join(' ').replaceAll(base, '$WORK').replaceAll(root + '/', ''),
  icd: { ...icd, seeds: [`http://127.0.1.1:PORT/`, '…', `http://${addrs.at(-1)}:PORT/`] },
  cli: summary,
  process: { wallS: m.wallS, cpuS: m.cpuS, peakRssMb: m.peakRssMb },
  server: {
    requests: hits.length,
    htmlPages: htmlHits.length,
    non200: hits.filter((h) => h.status !== 200).length,
    hostsSeen: byAddr.size,
    pagesPerHostMin: Math.min(...perHostPages),
    pagesPerHostMax: Math.max(...perHostPages),
    spanSeconds: spanS,
    minGapMs: minGap,
    // How far above the delay the crawler keeps a host waiting: the polite rate's shortfall.
    medianGapMs: gaps.sort((a, b) => a - b)[Math.floor(gaps.length / 2)],
    p90GapMs: gaps[Math.floor(gaps.length * 0.9)],
    minGapAt,
    excessOverDelayMs: { afterRobotsTxt: excess.byPosition[0] ?? 0, afterSeedPage: excess.byPosition[1] ?? 0, laterGapsMean: laterMean, perHost: excess.perHost, startSpread: excess.startSpread, byPosition: excess.byPosition.map((x) => Math.round(x)) },
    gapsBelowDelay: violations,
    overlappingRequestsToOneHost: overlaps,
  },
  idealPagesPerSecond: ideal,
  pagesPerSecond,
  percentOfIdeal: (100 * pagesPerSecond) / ideal,
  cliPercentOfIdeal: (100 * summary.pagesPerSecond) / ideal,
  targets: [
    { target: '≥ 90% of the ideal polite rate', value: (100 * pagesPerSecond) / ideal, unit: '%', met: (100 * pagesPerSecond) / ideal >= 90 },
    { target: `no two requests to one host closer than ${DELAY} ms`, value: minGap, unit: 'ms (min gap)', met: violations === 0 },
    { target: 'every host fully crawled', value: Math.min(...perHostPages), unit: `pages on the least-crawled host (of ${PAGES})`, met: Math.min(...perHostPages) >= PAGES && byAddr.size === HOSTS },
  ],
};
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results/politeness.json'), JSON.stringify(result, null, 2) + '\n');
rmSync(base, { recursive: true, force: true });

const f = (x: number, d = 1) => x.toLocaleString('en', { minimumFractionDigits: d, maximumFractionDigits: d });
const md = [
  '## Polite crawl rate (issue 3)',
  '',
  `### \`npm run bench:politeness\` — ${HOSTS} hosts × ${PAGES} pages, ${DELAY} ms per host (\`bench/results/politeness.json\`)`,
  '',
  `${HOSTS} hosts on distinct loopback addresses (${result.settings.addresses}), one Debian nginx with a \`listen\` line per address, ` +
    `each host serving ${PAGES} linked HTML pages (~${f(result.settings.pageBytesMean / 1024, 0)} KB) and a robots.txt. Tidemark's CLI crawls ` +
    `the ${HOSTS} home pages with an ICD: politeness on, robots honoured, minDelayMs = maxDelayMs = ${DELAY}, concurrency ${CONCURRENCY}. ` +
    `Ideal polite rate: ${HOSTS} × 1000 / ${DELAY} = ${f(ideal, 0)} pages/s. Rate and gaps are read from nginx's access log ` +
    `(per address, request start = \`$msec − $request_time\`, millisecond resolution): pages/s = HTML pages ÷ (last request start − first request start).`,
  '',
  `Machine: ${result.machine.cpu}, ${result.machine.cores} cores, Node ${result.machine.node}; load average (1 min) ${result.loadAverage.before[0]} before, ${result.loadAverage.after[0]} after; ` +
    `the VM's two cores just before the crawl (two htmlparser2 parsers at once over this site's pages, a process each, for 1 s: bench/support/cpu-probe.ts) ` +
    `${probeBefore.map((x) => f(x, 0)).join(' and ')} pages/s. ` +
    `Commit \`${result.commit}\`, ${result.date.slice(0, 16).replace('T', ' ')} UTC.`,
  '',
  '| measure | value |',
  '|---|---:|',
  `| HTML pages served (of ${f(HOSTS * PAGES, 0)}) | ${f(htmlHits.length, 0)} |`,
  `| requests in the log (incl. robots.txt) / non-200 | ${f(hits.length, 0)} / ${result.server.non200} |`,
  `| span first → last request | ${f(spanS, 2)} s |`,
  `| **pages/s (server log)** | **${f(pagesPerSecond)}** = **${f(result.percentOfIdeal)} %** of ${f(ideal, 0)} |`,
  `| pages/s as the CLI reports it (its whole crawl, start-up and robots included) | ${f(summary.pagesPerSecond)} (${f(result.cliPercentOfIdeal)} %) |`,
  `| process wall / CPU / peak RSS | ${f(m.wallS, 1)} s / ${f(m.cpuS, 1)} s / ${f(m.peakRssMb, 0)} MB |`,
  `| **min gap between two requests to one host** | **${f(minGap, 0)} ms** (${minGapAt}) |`,
  `| median / 90th percentile gap between two requests to one host | ${f(result.server.medianGapMs, 0)} / ${f(result.server.p90GapMs, 0)} ms |`,
  `| time above the delay, mean per host: after robots.txt / after the seed page / each later gap / in all | ${f(excess.byPosition[0] ?? 0, 0)} / ${f(excess.byPosition[1] ?? 0, 0)} / ${f(laterMean, 0)} / ${f(excess.perHost, 0)} ms |`,
  `| the last host's first request after the first host's | ${f(excess.startSpread, 0)} ms |`,
  `| gaps below ${DELAY} ms / requests to one host overlapping the previous | ${violations} / ${overlaps} |`,
  `| pages per host (min – max) | ${result.server.pagesPerHostMin} – ${result.server.pagesPerHostMax} |`,
  '',
  '| target | measured | met |',
  '|---|---:|:---:|',
  ...result.targets.map((t) => `| ${t.target} | ${f(t.value, t.unit === '%' ? 1 : 0)} ${t.unit} | ${t.met ? 'yes' : '**no**'} |`),
  '',
  `Command (\`$WORK\` = the benchmark's temporary folder; the ICD lists the ${HOSTS} seeds):`,
  '',
  '```sh',
  `npm run bench:politeness -- --hosts ${HOSTS} --pages ${PAGES} --delay ${DELAY} --concurrency ${CONCURRENCY}`,
  result.command,
  '```',
  '',
  `ICD: \`${JSON.stringify(result.icd)}\``,
  '',
];
writeReadmeSection('politeness', md.join('\n'));
console.log(md.join('\n'));
