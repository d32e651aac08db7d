import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { verifyWacz } from '../export/verify-wacz';
import { verifyCdxj, verifyWarcFile } from '../warc';
import type { CheckCommand } from './args';
import { terminalLine } from './progress';

/**
 * `tidemark check PATH…`: the checks an export runs before it lists a file (worker/warc/verify-warc.ts),
 * for any crawl's output: every WARC record read back through warcio with its digests recomputed,
 * and every CDXJ line followed to its record. Like `warcio check`, but with WARC.md's rules too.
 */

export interface CheckTarget {
  path: string;
  kind: 'warc' | 'cdxj' | 'wacz';
}

const WARC_NAME = /\.warc(\.gz)?(\.open)?$/;
const CDXJ_NAME = /\.cdxj$/;
const WACZ_NAME = /\.wacz$/;

/** How checkTargets sees the file system: null for a path that does not exist. */
export interface PathLister {
  isDirectory(path: string): boolean | null;
  list(dir: string): string[];
}

/**
 * What to read for the paths given: a folder's WARC files, then its CDXJ indexes, then its WACZ
 * packages, each sorted by name; a file by its name. `problems` names each path that is missing, not a WARC file or an
 * index, or a folder without either.
 */
export function checkTargets(paths: readonly string[], fs: PathLister): { targets: CheckTarget[]; problems: string[] } {
  const targets: CheckTarget[] = [];
  const problems: string[] = [];
  const kindOf = (name: string): CheckTarget['kind'] | null =>
    WARC_NAME.test(name) ? 'warc' : CDXJ_NAME.test(name) ? 'cdxj' : WACZ_NAME.test(name) ? 'wacz' : null;
  for (const path of paths) {
    const dir = fs.isDirectory(path);
    if (dir === null) {
      problems.push(`${path}: no such file or folder`);
      continue;
    }
    if (!dir) {
      const kind = kindOf(path);
      if (kind) targets.push({ path, kind });
      else problems.push(`${path}: not a WARC file (.warc.gz, .warc), a CDXJ index (.cdxj) or a WACZ package (.wacz)`);
      continue;
    }
    const names = fs.list(path).sort();
    const found = (['warc', 'cdxj', 'wacz'] as const).flatMap((kind) => names.filter((n) => kindOf(n) === kind).map((n) => ({ path: join(path, n), kind })));
    if (found.length) targets.push(...found);
    else problems.push(`${path}: holds no WARC file (.warc.gz, .warc), CDXJ index (.cdxj) or WACZ package (.wacz)`);
  }
  return { targets, problems };
}

export interface FileCheck extends CheckTarget {
  /** Records read (a WARC file, a package's WARC files) or lines followed (an index). */
  count: number;
  /** The records by WARC-Type. */
  types?: Record<string, number>;
  /** A package's files. */
  files?: number;
  errors: string[];
  /** Departures from WARC/1.1 that other tools' files commonly make, without damage: they do not fail the check. */
  warnings: string[];
}

/**
 * Checks one file; an unreadable one is a failed check, not an exception. `onProgress`: 0 to 1 (WARC
 * files and packages). An aborted `signal` (a Ctrl-C) stops it within the file: it throws the signal's reason.
 */
export async function checkFile(target: CheckTarget, onProgress?: (fraction: number) => void, signal?: AbortSignal): Promise<FileCheck> {
  try {
    if (target.kind === 'warc') {
      const v = await verifyWarcFile(target.path, undefined, onProgress, signal);
      return { ...target, count: v.records, types: v.types, errors: v.errors, warnings: v.warnings };
    }
    if (target.kind === 'wacz') {
      const v = await verifyWacz(target.path, onProgress, signal);
      return { ...target, count: v.records, types: v.types, files: v.files, errors: v.errors, warnings: v.warnings };
    }
    // An index names its WARC files relative to its own folder.
    const v = await verifyCdxj(target.path, dirname(target.path), signal);
    return { ...target, count: v.lines, errors: v.errors, warnings: [] };
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    return { ...target, count: 0, errors: [`cannot be read: ${(err as Error).message}`], warnings: [] };
  }
}

/** Problems (and warnings) listed per file in the text report; the rest are counted. */
const SHOWN_ERRORS = 10;

const plural = (n: number, word: string) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;

/** The first SHOWN_ERRORS of `items`, indented, and how many more there are. */
function listed(items: readonly string[], prefix = ''): string[] {
  const lines = items.slice(0, SHOWN_ERRORS).map((e) => `      ${prefix}${e}`);
  if (items.length > SHOWN_ERRORS) lines.push(`      … and ${(items.length - SHOWN_ERRORS).toLocaleString('en')} more (--json lists up to 1,000)`);
  return lines;
}

/** One file's lines of the text report. */
export function formatFileCheck(c: FileCheck): string[] {
  const types = Object.entries(c.types ?? {}).map(([t, n]) => `${t || 'no type'} ${n.toLocaleString('en')}`);
  const records = `${plural(c.count, 'record')}${types.length ? ` (${types.join(', ')})` : ''}`;
  const what = c.kind === 'cdxj' ? `${c.count.toLocaleString('en')} index lines` : c.kind === 'wacz' ? `${(c.files ?? 0).toLocaleString('en')} files, ${records}` : records;
  const warned = c.warnings.length ? `, ${plural(c.warnings.length, 'warning')}` : '';
  if (!c.errors.length) return [`ok    ${c.path}: ${what}${warned}`, ...listed(c.warnings, 'warning: ')];
  return [`FAIL  ${c.path}: ${what}, ${plural(c.errors.length, 'problem')}${warned}`, ...listed(c.errors), ...listed(c.warnings, 'warning: ')];
}

const nodeFs: PathLister = {
  isDirectory(path) {
    try {
      return statSync(path).isDirectory();
    } catch {
      return null;
    }
  },
  list: (dir) => readdirSync(dir),
};

/** A file's progress on the terminal, one line rewritten at most 4 times a second: large files take minutes. */
function progressMeter(path: string): { show: (fraction: number) => void; clear: () => void } {
  const line = terminalLine(process.stderr);
  let last = 0;
  return {
    show(fraction) {
      const now = Date.now();
      if (now - last < 250) return;
      last = now;
      line.show(`checking ${path}: ${Math.floor(fraction * 100)}%`);
    },
    clear: line.clear,
  };
}

/** What the report says of a check a Ctrl-C (or SIGTERM) stopped: the file it was reading, and how many were done. */
export function interruptedLine(path: string, checked: number, total: number): string {
  return `interrupted while checking ${path}: ${checked} of ${total} file${total === 1 ? '' : 's'} checked`;
}

/**
 * Runs `tidemark check`: 0 when every file passes, 1 when one does not, 2 when a path cannot be
 * checked. An aborted `signal` (a Ctrl-C) stops it within the file it reads: the files done are
 * reported, then where it stopped, and it returns null (the entry point picks the exit code).
 */
export async function runCheck(cmd: CheckCommand, signal?: AbortSignal): Promise<number | null> {
  const { targets, problems } = checkTargets(cmd.paths, nodeFs);
  if (problems.length) {
    for (const p of problems) console.error(p);
    // A script reading stdout still gets its one object, saying which paths could not be checked.
    if (cmd.json) console.log(JSON.stringify({ ok: false, unchecked: problems, files: [] }));
    return 2;
  }
  const results: FileCheck[] = [];
  for (const target of targets) {
    const meter = !cmd.json && process.stderr.isTTY ? progressMeter(target.path) : undefined;
    let result: FileCheck;
    try {
      result = await checkFile(target, meter?.show, signal);
    } catch (err) {
      if (!signal?.aborted) throw err;
      meter?.clear();
      const stopped = interruptedLine(target.path, results.length, targets.length);
      if (cmd.json) console.log(JSON.stringify({ ok: false, interrupted: stopped, files: results }));
      else console.log(stopped);
      return null;
    }
    meter?.clear();
    results.push(result);
    // Reported as each file is done: a crawl's files can take minutes to read.
    if (!cmd.json) console.log(formatFileCheck(result).join('\n'));
  }
  const failed = results.filter((r) => r.errors.length).length;
  if (cmd.json) console.log(JSON.stringify({ ok: failed === 0, files: results }));
  else console.log(`${results.length} file${results.length === 1 ? '' : 's'} checked: ${failed ? `${failed} with problems` : 'all pass'}`);
  return failed ? 1 : 0;
}
