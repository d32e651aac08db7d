/**
 * Crawl throughput (`npm run bench:throughput`, issue 3): a generated static site (bench/support/site.ts) served by
 * Debian's nginx on loopback, crawled in the same run by Tidemark's CLI (politeness off), GNU wget
 * (`--recursive --level=inf --warc-file`), Crawlee's CheerioCrawler (bench/peers) and the bare undici probe
 * (bench/support/bare-loop.ts: fetch only, + htmlparser2, + parse + warcio's gzip WARC serializer; 32 in flight).
 * Every process runs under GNU time (bench/support/measure.ts): wall seconds, user+sys CPU, peak RSS. Medians of
 * `--runs` runs (runs interleaved round-robin so drift hits every tool alike); peak RSS is the largest of the runs.
 * Then Tidemark variants (focused analysis on, AAH off) and `--runs` steady-state runs on a 20,000-page site; per-capture
 * timestamps (Capture.fetchedAt in the CLI's state DB) give each run's first and last fifth's pages/s (median run reported).
 *
 * Options: --runs N (3) --pages N (5000) --concurrency N (32) --steady-pages N (20000) --no-steady
 *          --only tidemark,wget,… (debugging; the ratios need all of them)
 * Writes bench/results/throughput.json and its section of bench/README.md.
 * BENCH_CPU_PROF=dir: Tidemark's runs write V8 CPU profiles there.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { checkSitemapServed, generateSite, writeSitemap, pagePath } from './support/site';
import { startNginx, ensureAptTool, type Nginx } from './support/nginx';
import { measure, median, type Measured } from './support/measure';
import { writeReadmeSection } from './support/readme-section';
import { benchCommit, cpuProfileArgs, git, machineInfo } from './support/run-info';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    pages: { type: 'string', default: '5000' },
    concurrency: { type: 'string', default: '32' },
    'steady-pages': { type: 'string', default: '20000' },
    'no-steady': { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
const RUNS = Number(args.runs);
const PAGES = Number(args.pages);
const CONCURRENCY = Number(args.concurrency);
const STEADY_PAGES = Number(args['steady-pages']);
for (const [k, v] of Object.entries({ runs: RUNS, pages: PAGES, concurrency: CONCURRENCY, 'steady-pages': STEADY_PAGES })) {
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${k} must be a positive whole number`);
}
const only = args.only ? new Set(args.only.split(',')) : null;
const RUN_TIMEOUT_MS = 15 * 60_000;

// ---------------------------------------------------------------------------------------------------------------
// Peers: Crawlee lives in bench/peers with its own package.json, installed on first run (never by CI).
function ensurePeers(): void {
  const peers = join(here, 'peers');
  if (existsSync(join(peers, 'node_modules/@crawlee/cheerio/package.json'))) return;
  if (process.env.CI) throw new Error('bench/peers is not installed (npm ci --prefix bench/peers); the benchmark never installs it under CI');
  console.error('bench: installing the peers (Crawlee) into bench/peers/node_modules…');
  const r = spawnSync('flock', ['/tmp/npm.lock', 'npm', 'ci', '--no-audit', '--no-fund', '--prefix', peers], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('npm ci in bench/peers failed');
}

function version(cmd: string, argv: string[], pick: RegExp): string {
  const r = spawnSync(cmd, argv, { encoding: 'utf8' });
  const m = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.match(pick);
  return m ? m[1] : 'unknown';
}

// ---------------------------------------------------------------------------------------------------------------
interface RunFigures {
  /** HTML pages of the site captured (the unit of every pages/s figure). */
  htmlPages: number;
  /** Every URL fetched (pages, assets, robots.txt, sitemap) where the tool says. */
  fetches: number;
  wallS: number;
  pagesPerSecond: number;
  cpuMsPerPage: number;
  peakRssMb: number;
  /** The tool's own figure where it prints one (Tidemark: crawl duration without process start-up). */
  reportedPagesPerSecond?: number;
}

interface ToolSpec {
  name: string;
  label: string;
  command: (work: string) => string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Reads the run's figures from its output; throws when the run did not capture the site. */
  collect: (m: Measured, work: string) => Omit<RunFigures, 'wallS' | 'pagesPerSecond' | 'cpuMsPerPage' | 'peakRssMb'>;
}

function lastJson(stdout: string): Record<string, unknown> {
  const line = stdout.trim().split('\n').filter((l) => l.startsWith('{')).at(-1);
  if (!line) throw new Error(`no JSON summary in the output: ${stdout.slice(-500)}`);
  return JSON.parse(line) as Record<string, unknown>;
}

function tidemarkCaptures(out: string): { html: number; all: number; times: number[] } {
  const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
  try {
    const rows = db.prepare("SELECT fetchedAt, mime FROM Capture WHERE recordType IN ('response', 'revisit') ORDER BY fetchedAt").all() as { fetchedAt: string; mime: string | null }[];
    return { html: rows.filter((r) => (r.mime ?? '').includes('html')).length, all: rows.length, times: rows.map((r) => Date.parse(r.fetchedAt)) };
  } finally {
    db.close();
  }
}

/** A Tidemark CLI run: `npx tidemark crawl [icd.json] --seed … --out … --no-politeness --json --concurrency N`. */
const icdsUsed: Record<string, unknown> = {};
function tidemarkTool(name: string, label: string, origin: string, icd: Record<string, unknown> | null, expectPages: number): ToolSpec {
  if (icd) icdsUsed[name] = JSON.parse(JSON.stringify(icd).replaceAll(origin, 'http://127.0.0.1:PORT'));
  return {
    name,
    label,
    command: (work) => {
      const argv = ['node', ...cpuProfileArgs(), join(root, 'bin/tidemark.js'), 'crawl'];
      if (icd) {
        writeFileSync(join(work, 'icd.json'), JSON.stringify(icd, null, 2));
        argv.push(join(work, 'icd.json'));
      } else argv.push('--seed', `${origin}/`);
      argv.push('--out', join(work, 'out'), '--no-politeness', '--json', '--concurrency', String(CONCURRENCY));
      return argv;
    },
    cwd: root,
    collect: (m, work) => {
      const summary = lastJson(m.stdout);
      if (summary.outcome !== 'finished') throw new Error(`${name}: crawl ${String(summary.outcome)}`);
      const caps = tidemarkCaptures(join(work, 'out'));
      if (caps.html < expectPages) throw new Error(`${name}: captured ${caps.html} of ${expectPages} HTML pages`);
      return { htmlPages: caps.html, fetches: Number(summary.pages), reportedPagesPerSecond: Number(summary.pagesPerSecond) };
    },
  };
}

function countFiles(dir: string, suffix: string): number {
  let n = 0;
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) n += countFiles(p, suffix);
    else if (e.endsWith(suffix)) n++;
  }
  return n;
}

// ---------------------------------------------------------------------------------------------------------------
ensurePeers();
if (!existsSync('/usr/bin/time')) ensureAptTool('/usr/bin/time', 'time'); // GNU time (apt-get, never under CI)
const base = mkdtempSync(join(tmpdir(), 'tidemark-bench-throughput-'));
console.error(`bench: work folder ${base}`);
const site = generateSite(join(base, 'site'), PAGES);
const nginx = await startNginx({ root: site.dir, workDir: join(base, 'nginx') });
writeSitemap(site.dir, nginx.origin);
await checkSitemapServed(nginx.origin);
const origin = nginx.origin;
const urlFile = join(base, 'urls.txt');
writeFileSync(urlFile, Array.from({ length: PAGES }, (_, i) => origin + pagePath(i)).join('\n') + '\n');

const KEYWORDS = [
  { term: 'harbour', weight: 2 },
  { term: 'archive', weight: 1 },
  { term: 'estuary', weight: 1 },
  { term: 'lighthouse beacon', weight: 1 },
];
const limits = { maxPages: 10_000_000, maxPagesPerHost: 10_000_000, maxDepth: 1000 };
// The main Tidemark figure runs the CLI with --seed (default ICD: AAH on, focus off) as the issue states;
// an ICD only when the site exceeds the default per-host budget of 10,000 pages.
const mainIcd = PAGES + 20 > 10_000 ? { name: 'bench throughput', seeds: [`${origin}/`], scope: limits } : null;
const tools: ToolSpec[] = [
  tidemarkTool('tidemark', 'Tidemark (CLI, defaults: AAH on, focus off)', origin, mainIcd, PAGES),
  <ToolSpec>{
    name: 'wget',
    label: 'GNU wget --recursive --warc-file',
    command: (work) => ['/usr/bin/wget', '--recursive', '--level=inf', '--no-verbose', `--warc-file=${join(work, 'wget')}`, '-P', join(work, 'files'), `${origin}/`],
    collect: (m, work) => {
      const html = countFiles(join(work, 'files'), '.html');
      if (html < PAGES) throw new Error(`wget: ${html} of ${PAGES} HTML pages (exit ${m.exitCode}): ${m.stderr.slice(-500)}`);
      const dl = m.stderr.match(/Downloaded: (\d+) files/);
      return { htmlPages: html, fetches: dl ? Number(dl[1]) : html };
    },
  },
  ...([false, true] as const).map(
    (memory): ToolSpec => ({
      name: memory ? 'crawlee-memory' : 'crawlee',
      label: memory ? 'Crawlee CheerioCrawler, in-memory storage (persistStorage false: its fastest)' : 'Crawlee CheerioCrawler (storage as shipped: request queue on disk)',
      command: () => ['node', join(here, 'peers/crawlee-cheerio.mjs'), origin, String(CONCURRENCY), ...(memory ? ['--memory'] : [])],
      cwd: '', // its ./storage goes into the run's folder
      collect: (m) => {
        const s = lastJson(m.stdout);
        if (Number(s.pages) < PAGES) throw new Error(`crawlee${memory ? ' in memory' : ''}: ${String(s.pages)} of ${PAGES} pages`);
        return { htmlPages: Number(s.pages), fetches: Number(s.pages), reportedPagesPerSecond: Number(s.pagesPerSecond) };
      },
    }),
  ),
  ...(['fetch', 'parse', 'warcio'] as const).map(
    (mode): ToolSpec => ({
      name: `bare-${mode}`,
      label: { fetch: 'bare undici loop (32 in flight)', parse: 'bare loop + htmlparser2', warcio: 'bare loop + parse + warcio gzip WARC' }[mode],
      command: (work) => ['node', '--import', 'tsx', join(here, 'support/bare-loop.ts'), '--urls', urlFile, '--mode', mode, '--inflight', '32', '--out', join(work, 'bare.warc.gz')],
      cwd: root,
      collect: (m) => {
        const s = lastJson(m.stdout);
        return { htmlPages: Number(s.pages), fetches: Number(s.pages), reportedPagesPerSecond: Number(s.pagesPerSecond) };
      },
    }),
  ),
  tidemarkTool('tidemark-focus', 'Tidemark, focused analysis on (ICD focus.enabled, 4 keywords)', origin, {
    name: 'bench throughput, focused',
    seeds: [`${origin}/`],
    scope: limits,
    focus: { enabled: true, keywords: KEYWORDS, topics: ['maritime history'] },
  }, PAGES),
  tidemarkTool('tidemark-aah-off', 'Tidemark, AAH off (ICD aah.enabled false)', origin, {
    name: 'bench throughput, AAH off',
    seeds: [`${origin}/`],
    scope: limits,
    aah: { enabled: false },
  }, PAGES),
].filter((t) => !only || only.has(t.name));

async function runOnce(tool: ToolSpec): Promise<RunFigures & { times?: number[] }> {
  const work = mkdtempSync(join(base, `${tool.name}-`));
  try {
    const cwd = tool.cwd === '' ? work : tool.cwd ?? work;
    const env: NodeJS.ProcessEnv = { ...process.env, CRAWLEE_STORAGE_DIR: join(work, 'storage') };
    const cmd = tool.command(work);
    const m = await measure(cmd, { cwd, env, timeoutMs: RUN_TIMEOUT_MS });
    if (m.exitCode !== 0 && !tool.name.startsWith('wget')) throw new Error(`${tool.name} exited ${m.exitCode}: ${m.stderr.slice(-1000)}`);
    const c = tool.collect(m, work);
    return {
      ...c,
      wallS: m.wallS,
      pagesPerSecond: c.htmlPages / m.wallS,
      cpuMsPerPage: (m.cpuS * 1000) / c.htmlPages,
      peakRssMb: m.peakRssMb,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const commands: Record<string, string> = {};
mkdirSync(join(base, 'run'));
for (const t of tools) commands[t.name] = t.command(join(base, 'run')).join(' ').replaceAll(join(base, 'run'), '$RUN').replaceAll(base, '$WORK').replaceAll(root + '/', '');

// Warm nginx's open-file cache and the page cache once, unmeasured.
await measure(['node', '--import', 'tsx', join(here, 'support/bare-loop.ts'), '--urls', urlFile, '--mode', 'fetch'], { cwd: root });

const loadBefore = loadavg();
const runs = new Map<string, RunFigures[]>();
// The CLI compiles its bundle on the first start after a source change: no timed run pays for it.
spawnSync('node', [join(root, 'bin/tidemark.js'), '--help'], { cwd: root, stdio: 'ignore' }); // prints usage (exit 2) once the bundle is built
for (let r = 0; r < RUNS; r++) {
  for (const tool of tools) {
    const fig = await runOnce(tool);
    (runs.get(tool.name) ?? runs.set(tool.name, []).get(tool.name)!).push(fig);
    console.error(
      `run ${r + 1}/${RUNS} ${tool.name.padEnd(17)} ${fig.pagesPerSecond.toFixed(1).padStart(8)} pages/s  ${fig.cpuMsPerPage.toFixed(2).padStart(6)} ms CPU/page  ${fig.peakRssMb.toFixed(0).padStart(5)} MB  (${fig.htmlPages} pages, ${fig.wallS.toFixed(2)} s)`,
    );
  }
}
await nginx.stop();

interface Summary { label: string; runs: RunFigures[]; pagesPerSecond: number; cpuMsPerPage: number; peakRssMb: number; wallS: number }
const summary: Record<string, Summary> = {};
for (const t of tools) {
  const rs = runs.get(t.name)!;
  summary[t.name] = {
    label: t.label,
    runs: rs,
    pagesPerSecond: median(rs.map((x) => x.pagesPerSecond)),
    cpuMsPerPage: median(rs.map((x) => x.cpuMsPerPage)),
    peakRssMb: Math.max(...rs.map((x) => x.peakRssMb)),
    wallS: median(rs.map((x) => x.wallS)),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Steady state: Tidemark runs on a larger site; rates of the first and last fifth of each run's captures.
// One run's ratio moves by ±0.15 from run to run on this VM, so the figure is the median run's, as elsewhere.
interface SteadyRun {
  htmlPages: number; captures: number; wallS: number; pagesPerSecond: number; peakRssMb: number; cpuMsPerPage: number;
  fifths: { captures: number; seconds: number; pagesPerSecond: number }[]; lastVsFirst: number;
  /** Captures per whole second since the first capture (the crawl's timeline, to see ramp-up and tail). */
  capturesPerSecond: number[];
}
let steady: null | (SteadyRun & {
  pages: number; command: string;
  /** Every run's last ÷ first fifth, in run order; the fields above are the median run's, but peakRssMb is the largest. */
  runs: { lastVsFirst: number; wallS: number; peakRssMb: number }[];
}) = null;

function steadyRun(caps: { html: number; all: number; times: number[] }, m: { wallS: number; cpuS: number; peakRssMb: number }): SteadyRun {
  const t = caps.times;
  const fifths = [0, 1, 2, 3, 4].map((k) => {
    const a = Math.floor((k * t.length) / 5);
    const b = Math.floor(((k + 1) * t.length) / 5) - 1;
    const seconds = (t[b] - t[a]) / 1000;
    return { captures: b - a + 1, seconds, pagesPerSecond: (b - a + 1) / Math.max(seconds, 1e-3) };
  });
  return {
    htmlPages: caps.html,
    captures: caps.all,
    wallS: m.wallS,
    pagesPerSecond: caps.html / m.wallS,
    peakRssMb: m.peakRssMb,
    cpuMsPerPage: (m.cpuS * 1000) / caps.html,
    fifths,
    lastVsFirst: fifths[4].pagesPerSecond / fifths[0].pagesPerSecond,
    capturesPerSecond: t.reduce((acc: number[], x) => {
      const sec = Math.floor((x - t[0]) / 1000);
      while (acc.length <= sec) acc.push(0);
      acc[sec]++;
      return acc;
    }, []),
  };
}

if (!args['no-steady'] && (!only || only.has('steady'))) {
  const sSite = generateSite(join(base, 'site-steady'), STEADY_PAGES, 7);
  const sNginx: Nginx = await startNginx({ root: sSite.dir, workDir: join(base, 'nginx-steady') });
  writeSitemap(sSite.dir, sNginx.origin);
  await checkSitemapServed(sNginx.origin);
  try {
    const icd = { name: 'bench throughput, steady state', seeds: [`${sNginx.origin}/`], scope: limits };
    const tool = tidemarkTool('tidemark-steady', 'Tidemark, steady state', sNginx.origin, icd, STEADY_PAGES);
    const runs: SteadyRun[] = [];
    let command = '';
    for (let r = 1; r <= RUNS; r++) {
      console.error(`bench: steady-state run ${r}/${RUNS} on ${STEADY_PAGES} pages…`);
      const work = mkdtempSync(join(base, 'steady-'));
      try {
        const cmd = tool.command(work);
        command = cmd.join(' ').replaceAll(work, '$RUN').replaceAll(base, '$WORK').replaceAll(root + '/', '');
        const m = await measure(cmd, { cwd: root, timeoutMs: 4 * RUN_TIMEOUT_MS });
        if (m.exitCode !== 0) throw new Error(`steady run exited ${m.exitCode}: ${m.stderr.slice(-1000)}`);
        tool.collect(m, work);
        const run = steadyRun(tidemarkCaptures(join(work, 'out')), m);
        runs.push(run);
        console.error(`steady: ${run.fifths.map((f) => f.pagesPerSecond.toFixed(0)).join(' / ')} pages/s per fifth, last/first ${run.lastVsFirst.toFixed(3)}`);
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    }
    const median = [...runs].sort((a, b) => a.lastVsFirst - b.lastVsFirst)[Math.floor(runs.length / 2)]!;
    steady = {
      ...median,
      pages: STEADY_PAGES,
      command,
      peakRssMb: Math.max(...runs.map((r) => r.peakRssMb)),
      runs: runs.map((r) => ({ lastVsFirst: r.lastVsFirst, wallS: r.wallS, peakRssMb: r.peakRssMb })),
    };
  } finally {
    await sNginx.stop();
  }
}
if (process.env.BENCH_KEEP_WORK) console.error(`bench: work folder kept: ${base}`); // BENCH_KEEP_WORK=1: keep the runs' outputs to study them
else rmSync(base, { recursive: true, force: true });

// ---------------------------------------------------------------------------------------------------------------
const pps = (n: string) => summary[n]?.pagesPerSecond;
// Ratios: the median over rounds of the two tools' pages/s in the same round (the runs are interleaved, so a round's
// figures share the machine's conditions); falls back to the ratio of medians when the run counts differ.
const ratio = (a: string, b: string): number | null => {
  const ra = runs.get(a);
  const rb = runs.get(b);
  if (!ra || !rb || !ra.length || !rb.length) return null;
  if (ra.length !== rb.length) return pps(a)! / pps(b)!;
  return median(ra.map((x, i) => x.pagesPerSecond / rb[i].pagesPerSecond));
};
const targets: { target: string; value: number | null; unit: string; met: boolean | null }[] = [];
const addTarget = (target: string, value: number | null, unit: string, ok: (v: number) => boolean) =>
  targets.push({ target, value, unit, met: value === null ? null : ok(value) });
addTarget('Tidemark ≥ 2× wget (pages/s)', ratio('tidemark', 'wget'), '×', (v) => v >= 2);
addTarget('Tidemark ≥ 5× Crawlee (pages/s; Crawlee\'s storage as shipped)', ratio('tidemark', 'crawlee'), '×', (v) => v >= 5);
addTarget('Tidemark ≥ 1.3× bare loop + parse + warcio', ratio('tidemark', 'bare-warcio'), '×', (v) => v >= 1.3);
addTarget('Tidemark peak RSS < 300 MB (5,000-page runs)', summary.tidemark?.peakRssMb ?? null, 'MB', (v) => v < 300);
if (steady) {
  addTarget(`Steady state (${STEADY_PAGES.toLocaleString('en')} pages, median of ${steady.runs.length} runs): last fifth's pages/s within 20% of the first's`, steady.lastVsFirst, '× first fifth', (v) => v >= 0.8 && v <= 1.2);
  addTarget(`Peak RSS < 300 MB on the ${STEADY_PAGES.toLocaleString('en')}-page run`, steady.peakRssMb, 'MB', (v) => v < 300);
}
addTarget('Focused analysis on ÷ off ≥ 0.6 (issue 4)', ratio('tidemark-focus', 'tidemark'), '×', (v) => v >= 0.6);
const aahCost = ratio('tidemark', 'tidemark-aah-off');

const machine = {
  ...machineInfo(),
  nginx: version('/usr/sbin/nginx', ['-v'], /nginx\/(\S+)/),
  wget: version('/usr/bin/wget', ['--version'], /GNU Wget (\S+)/),
  crawlee: JSON.parse(String(execFileSync('node', ['-p', "JSON.stringify(require('./node_modules/@crawlee/cheerio/package.json').version)"], { cwd: join(here, 'peers'), encoding: 'utf8' }))),
};
const result = {
  date: new Date().toISOString(),
  commit: benchCommit(root),
  dirtyWorker: process.env.BENCH_COMMIT ? false : git(['status', '--porcelain', '--', 'worker'], root) !== '',
  machine,
  /** 1/5/15-minute load averages before the measured runs and at the end: other work on the machine skews the figures. */
  loadAverage: { before: loadBefore.map((x) => Number(x.toFixed(2))), after: loadavg().map((x) => Number(x.toFixed(2))) },
  settings: { runs: RUNS, pages: PAGES, concurrency: CONCURRENCY, steadyPages: args['no-steady'] ? null : STEADY_PAGES, siteHtmlBytes: site.htmlBytes },
  method:
    'pages/s = HTML pages of the site captured ÷ wall seconds of the whole process (start-up included), median of the runs; ' +
    'ratios = median over rounds of the two tools\' pages/s in the same round; ' +
    'CPU ms per page = (user + sys CPU of the process and its threads and children, GNU time) ÷ HTML pages, median; peak RSS = GNU time %M, largest of the runs.',
  commands,
  icds: icdsUsed,
  tools: summary,
  ratios: {
    tidemarkVsWget: ratio('tidemark', 'wget'),
    tidemarkVsCrawlee: ratio('tidemark', 'crawlee'),
    tidemarkVsCrawleeInMemory: ratio('tidemark', 'crawlee-memory'),
    tidemarkVsBareWarcio: ratio('tidemark', 'bare-warcio'),
    tidemarkVsBareParse: ratio('tidemark', 'bare-parse'),
    tidemarkVsBareFetch: ratio('tidemark', 'bare-fetch'),
    focusOnVsOff: ratio('tidemark-focus', 'tidemark'),
    aahOnVsOff: aahCost,
  },
  steady,
  targets,
};
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results/throughput.json'), JSON.stringify(result, null, 2) + '\n');

// ---------------------------------------------------------------------------------------------------------------
const f1 = (x: number | null | undefined, d = 1) => (x === null || x === undefined || Number.isNaN(x) ? '—' : x.toLocaleString('en', { minimumFractionDigits: d, maximumFractionDigits: d }));
const md: string[] = [];
md.push('## Crawl throughput (issue 3)', '');
md.push(
  `### \`npm run bench:throughput\` — ${PAGES.toLocaleString('en')} pages, nginx on loopback (\`bench/results/throughput.json\`)`,
  '',
  `Generated static site (\`bench/support/site.ts\`, seeded): ${PAGES.toLocaleString('en')} HTML pages of 20–60 KB ` +
    `(mean ${f1(site.htmlBytes / PAGES / 1024)} KB), 20–60 links each, shared CSS/JS and 8 images, robots.txt with a Sitemap line, ` +
    `sitemap.xml; served by Debian nginx ${machine.nginx} (1 worker, sendfile, keep-alive) on 127.0.0.1. ` +
    `Every tool runs as its own process under GNU time, in the same run, ${RUNS} runs each interleaved round-robin.`,
  '',
  `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb} GB, Linux ${machine.kernel}, Node ${machine.node}, ` +
    `wget ${machine.wget}, Crawlee ${machine.crawlee}. Load average (1 min) ${result.loadAverage.before[0]} before the runs, ${result.loadAverage.after[0]} after. Commit \`${result.commit}\`${result.dirtyWorker ? ' (with uncommitted changes in worker/)' : ''}, ${result.date.slice(0, 16).replace('T', ' ')} UTC.`,
  '',
  '| tool | pages/s (median) | CPU ms / page | peak RSS MB | Tidemark ÷ tool |',
  '|---|---:|---:|---:|---:|',
);
for (const t of tools) {
  const s = summary[t.name];
  const isCeiling = t.name === 'bare-fetch';
  const r = t.name === 'tidemark' ? '—' : f1(ratio('tidemark', t.name), 2) + '×';
  md.push(`| ${isCeiling ? '**ceiling**: ' : ''}${s.label} | ${f1(s.pagesPerSecond)} | ${f1(s.cpuMsPerPage, 2)} | ${f1(s.peakRssMb, 0)} | ${r} |`);
}
md.push(
  '',
  'pages/s = HTML pages captured ÷ wall seconds of the whole process (start-up included); CPU = user + sys of the process, its threads and children; ' +
    'peak RSS = GNU time\'s maximum resident set size, largest of the runs; "Tidemark ÷ tool" and the ratios below are the median over rounds of the ratio within a round. The bare undici loop (fetch only, 32 in flight) is the ceiling ' +
    'the network and nginx allow; "+ parse + warcio" is the cost of the minimum a crawler must do with the stock libraries.',
  '',
);
if (aahCost !== null) {
  md.push(
    `AAH cost (issue 5): Tidemark with the AAH on (default) runs at ${f1(summary.tidemark.pagesPerSecond)} pages/s, with it off at ` +
      `${f1(summary['tidemark-aah-off'].pagesPerSecond)} pages/s: on ÷ off = **${f1(aahCost, 2)}** ` +
      `(CPU ${f1(summary.tidemark.cpuMsPerPage, 2)} vs ${f1(summary['tidemark-aah-off'].cpuMsPerPage, 2)} ms per page).`,
    '',
  );
}
if (steady) {
  md.push(
    `Steady state: ${steady.runs.length} Tidemark runs on a ${STEADY_PAGES.toLocaleString('en')}-page site (ICD with raised page budgets, politeness off, concurrency ${CONCURRENCY}); ` +
      `last ÷ first fifth by run: ${steady.runs.map((r) => f1(r.lastVsFirst, 3)).join(', ')}. The median run: ` +
      `${steady.htmlPages.toLocaleString('en')} HTML pages (${steady.captures.toLocaleString('en')} captures) in ${f1(steady.wallS)} s = ${f1(steady.pagesPerSecond)} pages/s, ` +
      `${f1(steady.cpuMsPerPage, 2)} ms CPU per page; peak RSS ${f1(steady.peakRssMb, 0)} MB (largest run). Captures per second by fifth of the crawl ` +
      `(from \`Capture.fetchedAt\` in the CLI's state DB): ${steady.fifths.map((f) => f1(f.pagesPerSecond, 0)).join(' / ')}; last ÷ first = **${f1(steady.lastVsFirst, 3)}**.`,
    '',
  );
}
md.push('| target | measured | met |', '|---|---:|:---:|');
for (const t of targets) md.push(`| ${t.target} | ${f1(t.value, 2)} ${t.unit} | ${t.met === null ? '—' : t.met ? 'yes' : '**no**'} |`);
md.push('', 'Commands (`$WORK` = the benchmark\'s temporary folder, `$RUN` = a fresh folder per run; run from the repository root; origins are the run\'s nginx port):', '', '```sh');
md.push(`npm run bench:throughput -- --runs ${RUNS} --pages ${PAGES} --concurrency ${CONCURRENCY}${args['no-steady'] ? ' --no-steady' : ''}`);
for (const t of tools) md.push(`# ${t.name}`, commands[t.name]);
if (steady) md.push('# tidemark-steady', steady.command);
md.push('```', '', 'ICD files (`$RUN/icd.json`; PORT = the run\'s nginx port):', '');
for (const [name, icd] of Object.entries(icdsUsed)) md.push(`- ${name}: \`${JSON.stringify(icd)}\``);
md.push('');
writeReadmeSection('throughput', md.join('\n'));
console.log(md.join('\n'));
