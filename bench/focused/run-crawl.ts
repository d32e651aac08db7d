import {
  BatchScorer, buildTopicVector, createPageAnalyzer, type PageAnalysis, type UpdateFunctionName,
} from '../../worker/analyze';
import { cosineTo, createTextAnalyzer, DocumentFrequencies, termFrequencies, type TermVector, type TextAnalyzer } from '../../worker/text';
import { PageTextGenerator } from './page-text';
import { mixSeed, seededRandom } from './random';
import type { SimFrontier } from './sim-frontier';
import { hostOf, pageIdOf, pageUrl, type WebGraph } from './web-graph';

/**
 * One simulated crawl: seeds of one topic, a reference crawl that builds the topic vector, then
 * the real analysis and the real frontier over the generated web until `pages` were crawled.
 */

/** A crawl strategy: BFS (constant priority, FIFO) or focused with an update function. */
export interface Strategy {
  name: string;
  focused: boolean;
  update: UpdateFunctionName;
  bl: number;
  batch: boolean;
}

/** Everything shared by the runs of one process: graph, texts, analyzer, background DF. */
export interface SimWorld {
  graph: WebGraph;
  gen: PageTextGenerator;
  analyzer: TextAnalyzer;
  /** Document frequencies of a random sample of the web: the evaluation's fixed IDF, and the crawler's prior. */
  background: DocumentFrequencies;
}

/** Builds the world (deterministic; about a second). */
export function createWorld(graph: WebGraph, backgroundSample = 3000): SimWorld {
  const gen = new PageTextGenerator(graph);
  const analyzer = createTextAnalyzer({ language: 'eng' });
  const background = new DocumentFrequencies();
  const rand = seededRandom(mixSeed(graph.params.seed, 99));
  for (let i = 0; i < backgroundSample; i++) background.addDocument(analyzer.terms(gen.text(Math.floor(rand() * graph.params.pages)), 'eng'));
  return { graph, gen, analyzer, background };
}

/** A topic and seed sample, with the topic vector its reference crawl built. */
export interface CrawlSetup {
  topic: number;
  sample: number;
  seeds: number[];
  topicVector: TermVector;
  /** Cosine with the topic vector (its norm computed once). */
  similarityToTopic: (v: TermVector) => number;
  /** Evaluation similarity per page (NaN until computed), shared by the strategies of this setup. */
  similarity: Float32Array;
}

/** 20 random seeds of `topic`; reference crawl = the seeds and their out-links, up to 50 pages. */
export function createSetup(world: SimWorld, topic: number, sample: number, seedCount = 20, referencePages = 50): CrawlSetup {
  const g = world.graph;
  const rand = seededRandom(mixSeed(g.params.seed, 7, topic, sample));
  const pool: number[] = [];
  for (let p = 0; p < g.params.pages; p++) if (g.topic[p] === topic && !g.hub[p]) pool.push(p);
  const seeds = new Set<number>();
  while (seeds.size < seedCount) seeds.add(pool[Math.floor(rand() * pool.length)]!);
  const reference = [...seeds];
  for (const s of seeds) {
    for (let i = g.linkStart[s]!; i < g.linkStart[s + 1]! && reference.length < referencePages; i++) reference.push(g.linkTargets[i]!);
  }
  const termsOf = (text: string) => world.analyzer.terms(text, 'eng');
  const { vector } = buildTopicVector(reference.map((p) => ({ text: world.gen.text(p) })), [], [], {
    termsOf, documentFrequencies: world.background.clone(),
  });
  return { topic, sample, seeds: [...seeds], topicVector: vector, similarityToTopic: cosineTo(vector), similarity: new Float32Array(g.params.pages).fill(Number.NaN) };
}

/** Measured outcome of one run. */
export interface RunResult {
  harvestRatio: number;
  meanSimilarity: number;
  subtopicCoverage: number;
  /** Sub-topics with ≥ 5 relevant pages after the first tenth of the crawl (who spreads early). */
  earlySubtopicCoverage: number;
  crawled: number;
  ms: number;
}

/** Crawls `pages` pages with a strategy and measures harvest ratio, mean similarity and sub-topic coverage. */
export function runCrawl(
  world: SimWorld, setup: CrawlSetup, strategy: Strategy, frontier: SimFrontier,
  options: { pages?: number; threshold?: number; /** Relevant pages that make a sub-topic reached (default 50). */ subtopicMinPages?: number } = {},
): RunResult {
  const started = performance.now();
  const g = world.graph;
  const pages = options.pages ?? 10_000;
  const threshold = options.threshold ?? 0.333;
  const df = world.background.clone();
  const analyzer = createPageAnalyzer({ topicVector: setup.topicVector, analyzer: world.analyzer, documentFrequencies: df, includeDefaultBlacklist: false });
  const batch = new BatchScorer(setup.topicVector, analyzer.moduleWeights);
  const spt = g.params.subtopicsPerTopic;
  const relevantPerSub = new Int32Array(spt);
  let crawled = 0;
  let relevant = 0;
  let simSum = 0;
  let early = -1;
  const reachedWith = (min: number) => relevantPerSub.reduce((n, c) => n + (c >= min ? 1 : 0), 0) / spt;

  frontier.add(setup.seeds.map((p) => ({ url: pageUrl(g, p), host: hostOf(g, p), depth: 0, priority: 1 })), 'FIRST');
  while (crawled < pages) {
    const leases = frontier.take(strategy.bl);
    if (!leases.length) break;
    const batchDepth = new Map<string, number>();
    for (const lease of leases) {
      if (crawled >= pages) {
        frontier.complete(lease.token);
        continue;
      }
      const p = pageIdOf(lease.url);
      const page = world.gen.page(p);
      // Focused runs analyse the page anyway; the evaluation reuses its term counts.
      const analysis: PageAnalysis | undefined = strategy.focused ? analyzer.analyze(page) : undefined;
      let sim = setup.similarity[p]!;
      if (Number.isNaN(sim)) {
        const counts = analysis?.termCounts ?? termFrequencies(world.analyzer.terms(page.text, 'eng'));
        sim = setup.similarityToTopic(world.background.weigh(counts));
        setup.similarity[p] = sim;
      }
      if (crawled === Math.floor(pages / 10)) early = reachedWith(5);
      crawled++;
      simSum += sim;
      if (sim > threshold) {
        relevant++;
        if (g.topic[p] === setup.topic) relevantPerSub[g.subtopic[p]!]!++;
      }
      frontier.complete(lease.token);
      const depth = lease.depth + 1;
      if (!analysis) {
        frontier.add(page.links.map((l) => ({ url: l.url, host: hostOf(g, pageIdOf(l.url)), depth, priority: 0.5, viaUrl: page.url })), 'FIRST');
        continue;
      }
      if (strategy.batch) {
        batch.add(analysis);
        for (const l of analysis.links) if (!batchDepth.has(l.url)) batchDepth.set(l.url, depth);
        continue;
      }
      frontier.add(
        analysis.links.filter((l) => !l.excluded).map((l) => ({ url: l.url, host: hostOf(g, pageIdOf(l.url)), depth, priority: l.priority, viaUrl: page.url })),
        strategy.update,
      );
    }
    if (strategy.batch && batch.size > 0) {
      frontier.add(
        batch.close().filter((s) => !s.excluded).map((s) => ({ url: s.url, host: hostOf(g, pageIdOf(s.url)), depth: batchDepth.get(s.url) ?? 1, priority: s.priority })),
        strategy.update,
      );
    }
  }
  return {
    harvestRatio: crawled ? relevant / crawled : 0,
    meanSimilarity: crawled ? simSum / crawled : 0,
    subtopicCoverage: reachedWith(options.subtopicMinPages ?? 50),
    earlySubtopicCoverage: early < 0 ? reachedWith(5) : early,
    crawled,
    ms: performance.now() - started,
  };
}
