import { parseArgs } from 'node:util';

export interface CrawlCommand {
  command: 'crawl';
  icdPath?: string;
  seeds: string[];
  out: string;
  maxPages?: number;
  concurrency?: number;
  politeness: boolean;
  json: boolean;
  wacz: boolean;
  /** With --wacz: each page's visible text in pages.jsonl. */
  pageText: boolean;
  /** Seconds between progress reports on stderr; 0: none. Unset: the default for the terminal (see progressEveryMs). */
  progressSeconds?: number;
}

/** `tidemark check PATH…`: verifies WARC files and CDXJ indexes (worker/cli/check.ts). */
export interface CheckCommand {
  command: 'check';
  /** Files (.warc.gz, .warc.gz.open, .warc, .cdxj, .wacz) or folders holding them. */
  paths: string[];
  json: boolean;
}

/** `tidemark --help`: the usage, on stdout, exit code 0. */
export interface HelpCommand {
  command: 'help';
}

export const USAGE = `Usage: tidemark crawl [icd.json] [--seed URL ...] --out DIR [--max-pages N] [--concurrency N] [--no-politeness] [--wacz [--page-text]] [--progress SECONDS] [--json]
       tidemark check PATH ... [--json]
       tidemark --help

Runs a crawl without the server, with the same worker code. Writes WARC files and index.cdxj
under DIR (plus its state database, so running it again with the same --out resumes).
Options:
  --seed URL         a seed URL (repeatable); without an ICD file the scope is the seeds' hosts
  --out DIR          output folder (required)
  --max-pages N      stop after N pages
  --concurrency N    fetches in flight at once
  --no-politeness    no per-host delay and no one-request-per-host limit (benchmarks, own servers)
  --wacz             when the crawl has finished, also package it as DIR/crawl.wacz (WACZ 1.1.1,
                     for ReplayWeb.page)
  --page-text        with --wacz: each page's visible text in its pages.jsonl (searchable)
  --progress S       report progress on stderr every S seconds (0: never); default 1 s on a
                     terminal, 20 s otherwise, never with --json unless given
  --json             print the summary as one JSON object

tidemark check reads every record of each WARC file (a folder: every .warc.gz or .warc in it,
its index.cdxj and its .wacz packages) and verifies digests, lengths, required fields and one record
per gzip member, and that each CDXJ line points at its record; a WACZ package's files also against
its datapackage.json. Exit code 0 when every file passes, 1 when one does not, 2 for a path that
is missing or holds nothing to check, and for bad arguments, 3 when Ctrl-C stopped it.`;

/** Options only `crawl` takes. */
const CRAWL_OPTIONS = ['seed', 'out', 'max-pages', 'concurrency', 'no-politeness', 'wacz', 'page-text', 'progress'] as const;

/** Written in decimal digits only: Number() also reads 0x3, 1e1 and " 2 ", which a script never means. */
function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = /^[0-9]+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number, got "${value}"`);
  return n;
}

/** The longest --progress interval: a day. Node's timers take at most ~24.8 days, and one asked past that fired every millisecond. */
export const MAX_PROGRESS_SECONDS = 86_400;

function progressSeconds(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = /^[0-9]+(\.[0-9]+)?$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n) || n > MAX_PROGRESS_SECONDS) {
    throw new Error(`--progress must be a number of seconds from 0 to ${MAX_PROGRESS_SECONDS.toLocaleString('en-US')} (a day), got "${value}"`);
  }
  return n;
}

/** Milliseconds between progress reports: the option's, else each second on a terminal and every 20 s in a log (Heritrix's interval), none with --json; null for none. */
export function progressEveryMs(cmd: Pick<CrawlCommand, 'progressSeconds' | 'json'>, tty: boolean): number | null {
  const seconds = cmd.progressSeconds ?? (cmd.json ? 0 : tty ? 1 : 20);
  return seconds > 0 ? Math.max(100, seconds * 1000) : null;
}

/** Parses the CLI's arguments; throws an Error with a readable message on bad input. */
export function parseCliArgs(argv: string[]): CrawlCommand | CheckCommand | HelpCommand {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      seed: { type: 'string', multiple: true },
      out: { type: 'string' },
      'max-pages': { type: 'string' },
      concurrency: { type: 'string' },
      'no-politeness': { type: 'boolean' },
      json: { type: 'boolean' },
      wacz: { type: 'boolean' },
      'page-text': { type: 'boolean' },
      progress: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { command: 'help' };
  const [command, icdPath, ...rest] = positionals;
  if (command === 'check') {
    const crawlOnly = CRAWL_OPTIONS.find((o) => values[o] !== undefined);
    if (crawlOnly) throw new Error(`--${crawlOnly} is an option of crawl, not of check`);
    const paths = positionals.slice(1);
    if (!paths.length) throw new Error(`Give the WARC files, CDXJ indexes or folders to check.\n${USAGE}`);
    return { command: 'check', paths, json: Boolean(values.json) };
  }
  if (command === undefined) throw new Error(`Give a command, crawl or check.\n${USAGE}`);
  if (command !== 'crawl') throw new Error(`Unknown command "${command}".\n${USAGE}`);
  if (rest.length) throw new Error(`Unexpected arguments: ${rest.join(' ')}`);
  if (!values.out) throw new Error(`--out DIR is required.\n${USAGE}`);
  if (values['page-text'] && !values.wacz) throw new Error('--page-text goes with --wacz (the text goes into the package)');
  const seeds = values.seed ?? [];
  if (!icdPath && seeds.length === 0) throw new Error(`Give an ICD file or at least one --seed URL.\n${USAGE}`);
  return {
    command: 'crawl',
    icdPath,
    seeds,
    out: values.out,
    maxPages: positiveInt('--max-pages', values['max-pages']),
    concurrency: positiveInt('--concurrency', values.concurrency),
    politeness: !values['no-politeness'],
    json: Boolean(values.json),
    wacz: Boolean(values.wacz),
    pageText: Boolean(values['page-text']),
    progressSeconds: progressSeconds(values.progress),
  };
}
