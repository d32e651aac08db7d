// One parser of the two-core speed probe (cpu-probe.ts, parseProbeOnCores): reads the HTML pages
// under a folder, warms the parser up, waits for the common start time, parses for the given time
// and prints its pages per second.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { htmlParseProbe } from './cpu-probe';

const [dir, startAtArg, msArg] = process.argv.slice(2);
const htmlUnder = (d: string): string[] =>
  readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? htmlUnder(join(d, f)) : f.endsWith('.html') ? [readFileSync(join(d, f), 'utf8')] : []));
const pages = htmlUnder(dir!);
htmlParseProbe(pages, 250); // the JIT's warm-up, not measured
while (Date.now() < Number(startAtArg)) {
  // a busy wait of at most a second: a timer would let the other process start first
}
console.log(htmlParseProbe(pages, Number(msArg)).pagesPerSecond.toFixed(0));
