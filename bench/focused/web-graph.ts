import { mixSeed, seededRandom } from './random';

/**
 * A generated web graph with topical locality: pages belong to hosts, topics and sub-topics and
 * link mostly within their host, sub-topic and topic, with noise links and hub pages. Pages also
 * vary in how topical they are (`alpha`): strong pages prefer to link to strong pages of their
 * sub-topic, the quality locality a focused crawler can exploit.
 */

/** Shape of the generated web. */
export interface GraphParams {
  seed: number;
  pages: number;
  topics: number;
  subtopicsPerTopic: number;
  meanPagesPerHost: number;
  /** Share of pages that are hubs (directories linking anywhere). */
  hubShare: number;
}

export const DEFAULT_GRAPH: GraphParams = { seed: 42, pages: 100_000, topics: 4, subtopicsPerTopic: 6, meanPagesPerHost: 100, hubShare: 0.01 };

/** The graph in flat typed arrays (100,000 pages fit in a few MB). */
export interface WebGraph {
  params: GraphParams;
  topic: Int16Array;
  subtopic: Int16Array;
  host: Int32Array;
  /** Topicality in [0, 1]: the share of a page's content words drawn from its topic. */
  alpha: Float32Array;
  hub: Uint8Array;
  /** Out-links in CSR form: targets of page p are linkTargets[linkStart[p] .. linkStart[p+1]). */
  linkStart: Int32Array;
  linkTargets: Int32Array;
  hostCount: number;
}

/** Pages grouped by a key, as CSR (ids of group g: ids[start[g] .. start[g+1])). */
function groupBy(keys: ArrayLike<number>, groups: number): { start: Int32Array; ids: Int32Array } {
  const start = new Int32Array(groups + 1);
  for (let i = 0; i < keys.length; i++) start[keys[i]! + 1]!++;
  for (let g = 0; g < groups; g++) start[g + 1]! += start[g]!;
  const fill = start.slice(0, groups);
  const ids = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) ids[fill[keys[i]!]!++] = i;
  return { start, ids };
}

function pick(group: { start: Int32Array; ids: Int32Array }, g: number, rand: () => number): number {
  const a = group.start[g]!;
  const n = group.start[g + 1]! - a;
  return n > 0 ? group.ids[a + Math.floor(rand() * n)]! : -1;
}

/** Generates the graph deterministically from `params.seed`. */
export function generateWebGraph(params: GraphParams = DEFAULT_GRAPH): WebGraph {
  const { pages: n, topics, subtopicsPerTopic: spt } = params;
  const rand = seededRandom(params.seed);
  const hostCount = Math.max(1, Math.round(n / params.meanPagesPerHost));
  const hostTopic = new Int16Array(hostCount);
  const hostSub = new Int16Array(hostCount);
  for (let h = 0; h < hostCount; h++) {
    hostTopic[h] = Math.floor(rand() * topics);
    hostSub[h] = Math.floor(rand() * spt);
  }
  const topic = new Int16Array(n);
  const subtopic = new Int16Array(n);
  const host = new Int32Array(n);
  const alpha = new Float32Array(n);
  const hub = new Uint8Array(n);
  for (let p = 0; p < n; p++) {
    // Host sizes vary: a skewed draw makes a few big sites and many small ones.
    const h = Math.min(hostCount - 1, Math.floor(Math.pow(rand(), 1.3) * hostCount));
    host[p] = h;
    const noise = rand() < 0.08;
    topic[p] = noise ? Math.floor(rand() * topics) : hostTopic[h]!;
    subtopic[p] = !noise && rand() < 0.7 ? hostSub[h]! : Math.floor(rand() * spt);
    const u = rand();
    alpha[p] = u < 0.4 ? 0.55 + 0.4 * rand() : u < 0.7 ? 0.2 + 0.35 * rand() : 0.12 * rand();
    if (rand() < params.hubShare) {
      hub[p] = 1;
      alpha[p] = 0.05;
    }
  }
  const byHost = groupBy(host, hostCount);
  const subKey = new Int32Array(n);
  for (let p = 0; p < n; p++) subKey[p] = topic[p]! * spt + subtopic[p]!;
  const bySub = groupBy(subKey, topics * spt);
  const byTopic = groupBy(topic, topics);
  const hubs = groupBy(hub, 2);

  const linkStart = new Int32Array(n + 1);
  const targets: number[] = [];
  for (let p = 0; p < n; p++) {
    linkStart[p] = targets.length;
    const r = seededRandom(mixSeed(params.seed, p, 1));
    const degree = hub[p] ? 60 : 6 + Math.floor(Math.pow(r(), 2) * 24);
    const strong = alpha[p]! > 0.55;
    for (let k = 0; k < degree; k++) {
      const u = r();
      let q: number;
      if (hub[p]) q = Math.floor(r() * n);
      else if (u < 0.3) q = pick(byHost, host[p]!, r);
      else if (u < 0.62) {
        q = pick(bySub, subKey[p]!, r);
        // Strong pages cite strong pages: the better of two draws.
        if (strong) {
          const q2 = pick(bySub, subKey[p]!, r);
          if (alpha[q2]! > alpha[q]!) q = q2;
        }
      } else if (u < 0.82) q = pick(byTopic, topic[p]!, r);
      else if (u < 0.96) q = Math.floor(r() * n);
      else q = pick(hubs, 1, r);
      if (q >= 0 && q !== p) targets.push(q);
    }
  }
  linkStart[n] = targets.length;
  return { params, topic, subtopic, host, alpha, hub, linkStart, linkTargets: Int32Array.from(targets), hostCount };
}

/** URL of a page: one host name per generated host. */
export function pageUrl(g: WebGraph, p: number): string {
  return `http://site${g.host[p]}.sim/p${p}`;
}

/** Page id of a simulated URL (inverse of {@link pageUrl}). */
export function pageIdOf(url: string): number {
  return Number(url.slice(url.lastIndexOf('/p') + 2));
}

/** Host name of a page, as the frontier schedules it. */
export function hostOf(g: WebGraph, p: number): string {
  return `site${g.host[p]}.sim`;
}
