/**
 * Temporal-coherence simulation (`npm run bench:coherence`): generated sites whose pages change
 * as Poisson processes with skewed rates, captured visit–revisit by each strategy through the
 * real schedule code (worker/coherence) and politeness rule on a simulated clock. Writes
 * bench/results/coherence.json with the mean incoherence and blur of each strategy.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { generateSite } from './coherence/site';
import { changeEvents, plans, POLITENESS, predictedRates, runCapture, slotDays } from './coherence/simulate';
import { simulateRecrawls } from './coherence/incremental-sim';

const PAGES = Number(process.env.COHERENCE_PAGES ?? 1000);
const RUNS = Number(process.env.COHERENCE_RUNS ?? 5);

const started = Date.now();
const round = (x: number) => Number(x.toFixed(4));

/** Mean incoherence and blur of every strategy over RUNS generated sites, at one politeness pace. */
async function scenario(minDelayMs: number) {
  const politeness = { ...POLITENESS, minDelayMs };
  const totals: Record<string, { incoherence: number; blur: number; durationMinutes: number }> = {};
  for (let run = 0; run < RUNS; run++) {
    const pages = generateSite(PAGES, 1000 + run);
    // Long enough for two passes at the slowest pace (30 s per fetch).
    const changes = changeEvents(pages, 2 * PAGES * 30_000, 2000 + run);
    const predicted = predictedRates(pages, 3000 + run);
    for (const [name, plan] of Object.entries(plans(pages, predicted, slotDays(politeness)))) {
      const r = await runCapture(pages, plan, changes, 4000 + run, politeness);
      const t = (totals[name] ??= { incoherence: 0, blur: 0, durationMinutes: 0 });
      t.incoherence += r.incoherence / RUNS;
      t.blur += r.blur / RUNS;
      t.durationMinutes += r.durationMinutes / RUNS;
    }
  }
  const strategies = Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, { incoherence: round(v.incoherence), blur: round(v.blur), durationMinutes: round(v.durationMinutes) }]));
  const baselines = Object.entries(strategies).filter(([k]) => !k.startsWith('visit-revisit'));
  const best = baselines.reduce((a, b) => (b[1].incoherence < a[1].incoherence ? b : a));
  const fifoOnly = baselines.filter(([k]) => k.includes('FIFO')).reduce((a, b) => (b[1].incoherence < a[1].incoherence ? b : a));
  const ours = (k: string) => strategies[`visit-revisit pyramid (${k} rates)`]!.incoherence;
  return {
    strategies,
    bestBaseline: best[0],
    ratioToBestBaseline: { oracle: round(ours('oracle') / best[1].incoherence), predicted: round(ours('predicted') / best[1].incoherence) },
    bestFifoBaseline: fifoOnly[0],
    ratioToBestFifoBaseline: { oracle: round(ours('oracle') / fifoOnly[1].incoherence), predicted: round(ours('predicted') / fifoOnly[1].incoherence) },
  };
}

/**
 * Share of the generated pages that stamp every answer (a "generated at" time, a CSRF token): an
 * assumption, not a measurement; their payload differs at every fetch, their content only when it changes.
 */
const STAMPING_SHARE = 0.3;

/**
 * Bouras et al.'s measure: pages downloaded by adaptive recrawling vs refetching everything, daily
 * rounds; adaptive rounds judging change as the engine does (fingerprints) and, for comparison, by
 * the payload digest alone (the engine before), on sites where STAMPING_SHARE of the pages stamp themselves.
 */
function incremental() {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const runs = { all: { policy: 'all', judge: 'fingerprint' }, adaptive: { policy: 'adaptive', judge: 'fingerprint' }, adaptiveByDigest: { policy: 'adaptive', judge: 'digest' } } as const;
  const acc = Object.fromEntries(Object.keys(runs).map((k) => [k, { downloads2: 0, downloads5: 0, stale: 0 }])) as Record<keyof typeof runs, { downloads2: number; downloads5: number; stale: number }>;
  for (let run = 0; run < RUNS; run++) {
    const pages = generateSite(PAGES, 1000 + run);
    for (const [name, { policy, judge }] of Object.entries(runs) as [keyof typeof runs, (typeof runs)[keyof typeof runs]][]) {
      const r = simulateRecrawls(pages, policy, 5, 1, 5000 + run, { judge, stampingShare: STAMPING_SHARE });
      acc[name].downloads2 += sum(r.downloads.slice(0, 2)) / RUNS;
      acc[name].downloads5 += sum(r.downloads) / RUNS;
      acc[name].stale += sum(r.staleAfterRound) / r.staleAfterRound.length / RUNS;
    }
  }
  const fewer = (name: keyof typeof runs, key: 'downloads2' | 'downloads5') => round(1 - acc[name][key] / acc.all[key]);
  return {
    setup: `daily recrawl rounds of the generated sites, fr_max = 4, parent threshold starting at 0.5; ${STAMPING_SHARE * 100} % of the pages stamp every answer (a time, a token)`,
    policies: Object.fromEntries(Object.entries(acc).map(([k, v]) => [k, { downloadsAfterTwoRounds: round(v.downloads2), downloadsAfterFiveRounds: round(v.downloads5), meanStaleShare: round(v.stale) }])),
    fewerDownloadsAfterTwoRounds: fewer('adaptive', 'downloads2'),
    fewerDownloadsAfterFiveRounds: fewer('adaptive', 'downloads5'),
    byDigest: { fewerDownloadsAfterTwoRounds: fewer('adaptiveByDigest', 'downloads2'), fewerDownloadsAfterFiveRounds: fewer('adaptiveByDigest', 'downloads5') },
  };
}

const main = await scenario(1000);
const slower = await scenario(5000);
const result = {
  setup: { pages: PAGES, runs: RUNS, politeness: 'minimum delay 1 s (5 s in `slowerPoliteness`), 2 × response time, one host', rates: 'log-normal per section (bench/coherence/site.ts)' },
  ...main,
  slowerPoliteness: slower,
  incremental: incremental(),
  seconds: (Date.now() - started) / 1000,
};
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/coherence.json', JSON.stringify(result, null, 2) + '\n');
for (const [label, s] of [['1 s delay', main], ['5 s delay', slower]] as const) {
  console.log(label);
  console.table(s.strategies);
  console.log(`best baseline ${s.bestBaseline}: ours/best oracle ${s.ratioToBestBaseline.oracle}, predicted ${s.ratioToBestBaseline.predicted}; best FIFO baseline ${s.bestFifoBaseline}: oracle ${s.ratioToBestFifoBaseline.oracle}, predicted ${s.ratioToBestFifoBaseline.predicted}`);
}
console.log('incremental recrawls', JSON.stringify(result.incremental));
console.log(`${result.seconds} s`);
