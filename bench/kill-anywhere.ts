// Crash explorer: SIGKILLs the CLI at random moments of a crawl of a loopback site (from ~0 ms, in
// start-up and migrations, to the end of the crawl), many times on one --out, and in its closing
// phase, lets a last run finish, and checks that the crawl completed, every page is captured
// exactly once, every WARC file reads to the end with its digests, no `.open` file is left and
// every index line points at its record (bench/kill-anywhere/explore.ts). Prints a JSON summary;
// exits 1 on any violation, keeping the work folder it names.
// Run: npx tsx bench/kill-anywhere.ts [--kills 40] [--closing-kills 3] [--pages 600] [--seed 1] [--site-delay-ms 10] [--concurrency 4] [--keep]
import { parseArgs } from 'node:util';
import { exploreKills } from './kill-anywhere/explore';

const { values } = parseArgs({
  options: {
    kills: { type: 'string', default: '40' },
    'closing-kills': { type: 'string', default: '3' },
    pages: { type: 'string', default: '600' },
    seed: { type: 'string', default: '1' },
    'site-delay-ms': { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '4' },
    keep: { type: 'boolean', default: false },
  },
});

const count = (name: keyof typeof values, min: number): number => {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < min) {
    console.error(`--${name} must be a whole number of at least ${min} (got ${values[name]})`);
    process.exit(2);
  }
  return n;
};

const summary = await exploreKills({
  kills: count('kills', 0),
  closingKills: count('closing-kills', 0),
  pages: count('pages', 24),
  seed: count('seed', 0),
  siteDelayMs: count('site-delay-ms', 0),
  concurrency: count('concurrency', 1),
  keep: values.keep,
  log: (line) => console.error(line),
});
console.log(JSON.stringify(summary, null, 2));
process.exitCode = summary.violations.length ? 1 : 0;
