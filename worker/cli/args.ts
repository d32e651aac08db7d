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
}

/** `tidemark check PATH…`: verifies WARC files and CDXJ indexes (worker/cli/check.ts). */
export interface CheckCommand {
  command: 'check';
  /** Files (.warc.gz, .warc.gz.open, .warc, .cdxj, .wacz) or folders holding them. */
  paths: string[];
  json: boolean;
}

export const USAGE = `Usage: tidemark crawl [icd.json] [--seed URL ...] --out DIR [--max-pages N] [--concurrency N] [--no-politeness] [--wacz [--page-text]] [--json]
       tidemark check PATH ... [--json]

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
  --json             print the summary as one JSON object

tidemark check reads every record of each WARC file (a folder: every .warc.gz or .warc in it,
its index.cdxj and its .wacz packages) and verifies digests, lengths, required fields and one record
per gzip member, and that each CDXJ line points at its record; a WACZ package's files also against
its datapackage.json. Exit code 0 when every file passes, 1 when one does not.`;

/** Options only `crawl` takes. */
const CRAWL_OPTIONS = ['seed', 'out', 'max-pages', 'concurrency', 'no-politeness', 'wacz', 'page-text'] as const;

function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number, got "${value}"`);
  return n;
}

/** Parses the CLI's arguments; throws an Error with a readable message on bad input. */
export function parseCliArgs(argv: string[]): CrawlCommand | CheckCommand {
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
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) throw new Error(USAGE);
  const [command, icdPath, ...rest] = positionals;
  if (command === 'check') {
    const crawlOnly = CRAWL_OPTIONS.find((o) => values[o] !== undefined);
    if (crawlOnly) throw new Error(`--${crawlOnly} is an option of crawl, not of check`);
    const paths = positionals.slice(1);
    if (!paths.length) throw new Error(`Give the WARC files, CDXJ indexes or folders to check.\n${USAGE}`);
    return { command: 'check', paths, json: Boolean(values.json) };
  }
  if (command !== 'crawl') throw new Error(`Unknown command "${command ?? ''}".\n${USAGE}`);
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
  };
}
