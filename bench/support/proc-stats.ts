/**
 * What Linux's /proc says about a process: resident memory, threads, open file descriptors by
 * kind, and its children. Used by bench/soak.ts (a long-running cockpit must not grow any of them).
 */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

export interface ProcStatus {
  rssKb: number;
  hwmKb: number;
  threads: number;
}

export function procStatus(pid: number): ProcStatus | null {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? NaN);
    return { rssKb: field('VmRSS'), hwmKb: field('VmHWM'), threads: field('Threads') };
  } catch {
    return null;
  }
}

/** A descriptor's target reduced to a kind: socket, pipe, anon_inode:…, or the file's role. */
export function fdKind(target: string): string {
  if (target.startsWith('socket:')) return 'socket';
  if (target.startsWith('pipe:')) return 'pipe';
  if (target.startsWith('anon_inode:')) return target.replace(/\[\d+\]$/, '');
  if (/\.warc\.gz\.open$/.test(target)) return 'warc.open';
  if (/\.warc(\.gz)?$/.test(target)) return 'warc';
  if (/\.db-wal$/.test(target)) return 'db-wal';
  if (/\.db-shm$/.test(target)) return 'db-shm';
  if (/\.db$/.test(target)) return 'db';
  if (/\.lock$/.test(target)) return 'lock';
  if (/\/spool\//.test(target)) return 'spool';
  if (/\/exports\//.test(target)) return 'export';
  if (/\.cdxj/.test(target)) return 'cdxj';
  if (target.startsWith('/dev/')) return 'dev';
  if (/node_modules|\.next\//.test(target)) return 'code';
  return 'other';
}

/** Open descriptors by kind, and the targets of those that are files under `dataDir`. */
export function openFds(pid: number, dataDir?: string): { total: number; byKind: Record<string, number>; dataFiles: string[] } {
  const byKind: Record<string, number> = {};
  const dataFiles: string[] = [];
  let total = 0;
  let names: string[] = [];
  try {
    names = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return { total: 0, byKind, dataFiles };
  }
  for (const fd of names) {
    let target: string;
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue; // closed meanwhile
    }
    total++;
    const kind = fdKind(target);
    byKind[kind] = (byKind[kind] ?? 0) + 1;
    if (dataDir && target.startsWith(dataDir)) dataFiles.push(target.slice(dataDir.length + 1));
  }
  return { total, byKind, dataFiles: dataFiles.sort() };
}

/** Direct children of `pid`, from /proc/<pid>/task/<tid>/children. */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      if (text) out.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    // the process ended
  }
  return out;
}
