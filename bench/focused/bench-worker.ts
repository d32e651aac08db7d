import { createSetup, createWorld, runCrawl, type CrawlSetup, type RunResult } from './run-crawl';
import { sqliteSimFrontier } from './sim-frontier';
import { STRATEGIES } from './strategies';
import { generateWebGraph, type GraphParams } from './web-graph';

/**
 * Child process of bench/focused.ts: builds the world once, then runs the crawls it is sent
 * ({topic, sample, strategy}) one at a time and answers with their results.
 */

interface Task {
  topic: number;
  sample: number;
  strategy: string;
  pages: number;
  graph: GraphParams;
}

let world: ReturnType<typeof createWorld> | undefined;
const setups = new Map<string, CrawlSetup>();

process.on('message', (task: Task | 'exit') => {
  if (task === 'exit') process.exit(0);
  world ??= createWorld(generateWebGraph(task.graph));
  const key = `${task.topic}/${task.sample}`;
  let setup = setups.get(key);
  if (!setup) setups.set(key, (setup = createSetup(world, task.topic, task.sample)));
  const strategy = STRATEGIES.find((s) => s.name === task.strategy);
  if (!strategy) throw new Error(`unknown strategy ${task.strategy}`);
  const frontier = sqliteSimFrontier();
  let result: RunResult;
  try {
    result = runCrawl(world, setup, strategy, frontier, { pages: task.pages });
  } finally {
    frontier.close();
  }
  process.send!({ task, result });
});
process.send!('ready');
