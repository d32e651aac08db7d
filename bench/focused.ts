/**
 * Focused-crawling simulation (`npm run bench:focused`): a generated web of 100,000 pages over
 * 4 topics with sub-topics, crawled through the real analysis (worker/analyze) and the real SQLite
 * frontier (worker/frontier, in memory) with BFS and each prioritisation strategy; 10,000 pages a
 * run, 3 topics × 3 seed samples per strategy. Writes bench/results/focused.json and
 * bench/results/focused.md. Options: FOCUSED_PAGES (pages per crawl), FOCUSED_WORKERS (processes).
 */
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunResult } from './focused/run-crawl';
import { STRATEGIES, summarise } from './focused/strategies';
import { DEFAULT_GRAPH } from './focused/web-graph';

const here = dirname(fileURLToPath(import.meta.url));
const pages = Number(process.env.FOCUSED_PAGES ?? 10_000);
const workers = Number(process.env.FOCUSED_WORKERS ?? Math.min(2, availableParallelism()));
const TOPICS = [0, 1, 2];
const SAMPLES = [0, 1, 2];
const PAPER: Record<string, number> = { FIRST: 0.3317, AVG: 0.3609, MAX: 0.3388, SUM: 0.2679, LAST: 0.3404, 'AVG-bl5': 0.32, 'AVG-bl5-batch': 0.3347 };

interface Task { topic: number; sample: number; strategy: string; pages: number; graph: typeof DEFAULT_GRAPH }

const tasks: Task[] = [];
for (const topic of TOPICS) for (const sample of SAMPLES) for (const s of STRATEGIES) tasks.push({ topic, sample, strategy: s.name, pages, graph: DEFAULT_GRAPH });
const results = new Map<string, RunResult[]>();
const started = performance.now();

await Promise.all(
  Array.from({ length: workers }, () => new Promise<void>((resolve, reject) => {
    const child = fork(join(here, 'focused', 'bench-worker.ts'), [], { execArgv: ['--import', 'tsx'] });
    const sendNext = () => {
      const task = tasks.shift();
      if (task) child.send(task);
      else child.send('exit');
    };
    child.on('message', (msg: 'ready' | { task: Task; result: RunResult }) => {
      if (msg !== 'ready') {
        const list = results.get(msg.task.strategy) ?? [];
        list.push(msg.result);
        results.set(msg.task.strategy, list);
        const r = msg.result;
        console.log(`${msg.task.strategy.padEnd(14)} topic ${msg.task.topic} sample ${msg.task.sample}: harvest ${r.harvestRatio.toFixed(4)}  sim ${r.meanSimilarity.toFixed(4)}  sub-topics ${r.subtopicCoverage.toFixed(2)} (early ${r.earlySubtopicCoverage.toFixed(2)})  ${(r.ms / 1000).toFixed(1)} s`);
      }
      sendNext();
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bench worker exited with ${code}`))));
  })),
);

const seconds = (performance.now() - started) / 1000;
const strategies: Record<string, unknown> = {};
const rows: string[] = [];
for (const s of STRATEGIES) {
  const runs = results.get(s.name) ?? [];
  const h = summarise(runs.map((r) => r.harvestRatio));
  const m = summarise(runs.map((r) => r.meanSimilarity));
  const c = summarise(runs.map((r) => r.subtopicCoverage));
  const e = summarise(runs.map((r) => r.earlySubtopicCoverage));
  const { mean: hm, ...hs } = h;
  const { mean: mm, ...ms } = m;
  const { mean: cm, ...cs } = c;
  const { mean: em, ...es } = e;
  strategies[s.name] = {
    harvestRatio: hm, meanSimilarity: mm, subtopicCoverage: cm, earlySubtopicCoverage: em, runs: runs.length,
    spread: { harvestRatio: hs, meanSimilarity: ms, subtopicCoverage: cs, earlySubtopicCoverage: es },
  };
  const paper = PAPER[s.name];
  rows.push(`| ${s.name} | ${hm.toFixed(4)} (${h.min.toFixed(3)}–${h.max.toFixed(3)}, sd ${h.sd.toFixed(3)}) | ${mm.toFixed(4)} (sd ${m.sd.toFixed(3)}) | ${cm.toFixed(2)} | ${em.toFixed(2)} | ${paper === undefined ? '—' : paper.toFixed(4)} |`);
}
const out = {
  strategies,
  meta: {
    pagesPerCrawl: pages, runsPerStrategy: TOPICS.length * SAMPLES.length, graph: DEFAULT_GRAPH, frontier: 'SqliteFrontier (worker/frontier) on in-memory SQLite, politeness off',
    relevanceThreshold: 0.333, subtopicReachedAt: '≥ 50 relevant pages of the sub-topic by the end; early: ≥ 5 after the first tenth of the crawl', workers, seconds: Math.round(seconds),
  },
};
const resultsDir = join(here, 'results');
mkdirSync(resultsDir, { recursive: true });
writeFileSync(join(resultsDir, 'focused.json'), `${JSON.stringify(out, null, 2)}\n`);
const table = [
  '| strategy | harvest ratio (min–max, sd) | mean similarity | sub-topics reached | sub-topics at 10% | ARCOMEM harvest |',
  '| --- | --- | --- | --- | --- | --- |',
  ...rows,
].join('\n');
writeFileSync(join(resultsDir, 'focused.md'), `${table}\n`);
console.log(`\n${table}\n\n${tasks.length === 0 ? 'done' : 'incomplete'} in ${seconds.toFixed(0)} s with ${workers} workers`);
