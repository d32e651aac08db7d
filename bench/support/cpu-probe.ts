import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Parser } from 'htmlparser2';

/** How many pages a second htmlparser2 parsed in a fixed time, and what it took. */
export interface ParseProbe {
  pages: number;
  ms: number;
  pagesPerSecond: number;
}

/**
 * The machine's speed just before a benchmark, as one number: htmlparser2 parsing `pages` (HTML
 * text) round after round, for at least `budgetMs` and at least one whole round. This build VM's
 * speed drifts by a third between phases (the same code at 94% and at 72% of the polite ideal two
 * days apart), so a run's figures are read against it. Pure CPU on the benchmark's own thread:
 * no network, no disk.
 */
export function htmlParseProbe(pages: readonly string[], budgetMs = 1000, now: () => number = () => performance.now()): ParseProbe {
  if (pages.length === 0) throw new Error('htmlParseProbe: no pages to parse');
  const started = now();
  let parsed = 0;
  let elements = 0;
  let ms = 0;
  const parser = () => new Parser({ onopentag: () => void elements++ }, { decodeEntities: true });
  do {
    for (const html of pages) {
      const p = parser();
      p.write(html);
      p.end();
      parsed++;
    }
    ms = now() - started;
  } while (ms < budgetMs);
  // `elements` keeps the parse from being optimised away; every page has at least its root element.
  if (elements < parsed) throw new Error('htmlParseProbe: the parser saw no elements');
  return { pages: parsed, ms, pagesPerSecond: (parsed * 1000) / ms };
}

/**
 * `processes` parsers at once, each in a process of its own, over the HTML pages under `dir`, for
 * `ms` from a common start: their pages per second. On this 2-core VM two at once sometimes run at
 * full speed each and sometimes one at about half (measured 7,427 + 7,300 against 6,972 + 3,877
 * pages/s, one alone at ~7,600): the second core is not always a whole one, and a crawl that keeps
 * both busy (its thread, compression, nginx) slows with it.
 */
export async function parseProbeOnCores(dir: string, processes = 2, ms = 1000): Promise<number[]> {
  const entry = fileURLToPath(new URL('./parse-probe-main.ts', import.meta.url));
  const startAt = Date.now() + 2000; // after every process has started and warmed up
  const one = () =>
    new Promise<number>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', entry, dir, String(startAt), String(ms)], (err, stdout) => (err ? reject(err) : resolve(Number(stdout.trim())))),
    );
  return Promise.all(Array.from({ length: processes }, one));
}
