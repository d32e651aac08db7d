'use client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ChartFrame } from '../../components/charts';
import { elapsedLabel, elapsedTicks, layoutLines, layoutStack, STATUS_CLASS_COLOURS } from '../../lib/client/chart-layout';
import { withHistory, type StatsSample } from '../../lib/client/live';
import { keys, useThroughputHistory } from '../../lib/client/queries';
import { rateWindowMs } from '../../lib/server/throughput-history';
import { RATE_WINDOW_MS } from '../../../worker/events/messages';

const WIDTH = 560;
const HEIGHT = 200;

/**
 * Pages/s and responses per HTTP status class over time: the crawl's history rebuilt from its
 * captures, then the samples the socket delivers while the page is open. `ended`: the crawl will
 * run no more (its charts will not fill in).
 */
export function ThroughputCharts({ crawlId, ended }: { crawlId: number; ended: boolean }) {
  const client = useQueryClient();
  const history = useThroughputHistory(crawlId);
  const { data: live = [] } = useQuery({
    queryKey: keys.statsHistory(crawlId),
    queryFn: () => client.getQueryData<StatsSample[]>(keys.statsHistory(crawlId)) ?? [],
    staleTime: Infinity,
    gcTime: Infinity,
  });
  const samples = withHistory(history.data?.points ?? [], live);
  const start = samples[0]?.at ?? Date.now();
  const xFormat = elapsedLabel(start);
  const xTicks = elapsedTicks(start, start, samples.at(-1)?.at ?? start, Math.floor(WIDTH / 90));
  // Say what a point is: the history's are averages over its window, the live ones over RATE_WINDOW_MS.
  const historyWindowS = rateWindowMs(history.data?.widthMs ?? RATE_WINDOW_MS) / 1000;
  const liveWindowS = RATE_WINDOW_MS / 1000;
  const rateTitle = historyWindowS === liveWindowS || !history.data?.points.length
    ? `Pages per second (average of the ${liveWindowS} s before each point)`
    : `Pages per second (average of the ${historyWindowS} s before each point, ${liveWindowS} s for those drawn live)`;
  const rate = layoutLines([{ key: 'pps', label: 'pages/s', colour: '#0369a1', points: samples.map((s) => [s.at, s.pagesPerSecond]) }], { width: WIDTH, height: HEIGHT, xFormat, xTicks, yFormat: (v) => v.toFixed(1), yMinStep: 0.1 });
  const classes = [...new Set(samples.flatMap((s) => Object.keys(s.statusClasses)))].sort();
  const stackLayout = layoutStack(samples.map((s) => ({ x: s.at, values: s.statusClasses })), classes, STATUS_CLASS_COLOURS, { width: WIDTH, height: HEIGHT, xFormat, xTicks });
  return (
    <section aria-label="Throughput over time" className="grid gap-4 lg:grid-cols-2" data-samples={samples.length} data-testid="throughput">
      <div className="card">
        <ChartFrame layout={rate} title={rateTitle} legend={[{ key: 'pps', label: 'pages/s', colour: '#0369a1' }]} xLabel="elapsed (m:ss)" testId="chart-pages-per-second" />
      </div>
      <div className="card">
        <ChartFrame layout={stackLayout} title="Responses by HTTP status class (cumulative)" legend={classes.map((c) => ({ key: c, label: c, colour: STATUS_CLASS_COLOURS[c] ?? '#64748b' }))} xLabel="elapsed (m:ss)" testId="chart-status-classes" />
      </div>
      {samples.length < 2 && <p className="text-sm text-slate-600 lg:col-span-2">{history.isPending ? 'Loading the crawl’s history…' : ended ? 'The crawl ended with too few captures to draw its throughput.' : 'The charts fill in while the crawl runs.'}</p>}
    </section>
  );
}
