/**
 * One sample of everything a long-running cockpit could grow: the server's and the crawl worker's
 * memory, heap, threads, descriptors, timers and handles, event-loop delay, socket.io rooms; the
 * database's files and rows (orphans of deleted crawls counted apart); files left in the data folder.
 */
import Database from 'better-sqlite3';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Inspector } from './inspector';
import { childPids, openFds, procStatus } from './proc-stats';

export interface ProcessSample {
  pid: number;
  rssMb: number;
  threads: number;
  fds: number;
  fdKinds: Record<string, number>;
  /** Data-folder files it holds open (WARC files, spool files, the database). */
  dataFiles: string[];
  heapMb?: number;
  /** process.memoryUsage() after that GC: external memory and ArrayBuffers are outside the heap, MB. */
  externalMb?: number;
  arrayBuffersMb?: number;
  /** process.getActiveResourcesInfo(), counted by kind: timers, sockets, file handles… */
  resources?: Record<string, number>;
  /** Live EventEmitters by constructor (sockets, servers, threads, dispatchers…). */
  emitters?: Record<string, number>;
  /** Event-loop delay between the previous sample and this one (the probe's own GCs left out), ms. */
  loopDelay?: { p50: number; p99: number; max: number };
  /** Server only: socket.io's connections, rooms and the rooms its sockets are in. */
  socketIo?: { connections: number; sockets: number; rooms: number; memberships: number };
}

export interface Sample {
  round: number;
  at: string;
  server: ProcessSample | null;
  worker: ProcessSample | null;
  db: { dbKb: number; walKb: number; shmKb: number; pages: number; freePages: number; rows: Record<string, number>; orphans: Record<string, number> };
  data: { files: number; byTop: Record<string, number>; leftovers: string[] };
}

const EMITTERS_FN = `function () {
  const out = {};
  for (const o of this) { if (o === o.constructor?.prototype) continue; const n = o.constructor?.name ?? '?'; out[n] = (out[n] ?? 0) + 1; }
  return out;
}`;

const SOCKET_IO_FN = `function () {
  const out = { connections: 0, sockets: 0, rooms: 0, memberships: 0 };
  for (const ns of this) {
    if (!ns.adapter || !ns.sockets) continue;
    out.connections = ns.server?.engine?.clientsCount ?? 0;
    out.sockets += ns.sockets.size;
    out.rooms += ns.adapter.rooms.size;
    for (const s of ns.adapter.sids.values()) out.memberships += s.size;
  }
  return out;
}`;

/** Connects to the inspectors a cockpit's processes announced and samples them. */
export class ProcessProbe {
  private readonly inspectors = new Map<number, Inspector>();
  private readonly tried = new Set<string>();

  constructor(private readonly output: () => string) {}

  private async inspectorFor(pid: number): Promise<Inspector | null> {
    const known = this.inspectors.get(pid);
    if (known?.open) return known;
    for (const [, url] of this.output().matchAll(/Debugger listening on (ws:\/\/\S+)/g)) {
      if (this.tried.has(url!)) continue;
      this.tried.add(url!);
      try {
        const inspector = await Inspector.connect(url!);
        const itsPid = await inspector.evaluate<number>('process.pid');
        await inspector.evaluate(`globalThis.__soakLoop ??= (() => { const h = require('node:perf_hooks').monitorEventLoopDelay({ resolution: 10 }); h.enable(); return h; })(), 1`);
        this.inspectors.set(itsPid, inspector);
      } catch {
        // an ended worker's inspector
      }
    }
    return this.inspectors.get(pid) ?? null;
  }

  async sample(pid: number | undefined, dataDir: string, role: 'server' | 'worker'): Promise<ProcessSample | null> {
    if (!pid) return null;
    const status = procStatus(pid);
    if (!status) return null;
    const fds = openFds(pid, dataDir);
    const out: ProcessSample = { pid, rssMb: +(status.rssKb / 1024).toFixed(1), threads: status.threads, fds: fds.total, fdKinds: fds.byKind, dataFiles: fds.dataFiles };
    const inspector = await this.inspectorFor(pid);
    if (!inspector) return out;
    try {
      // Read first, reset last: the full GCs of the probe itself must not count as the process's delay.
      out.loopDelay = await inspector.evaluate(`(() => { const h = globalThis.__soakLoop; return { p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 }; })()`);
      out.heapMb = +((await inspector.heapAfterGc()).used / 2 ** 20).toFixed(1);
      const mem = await inspector.evaluate<{ external: number; arrayBuffers: number }>('process.memoryUsage()');
      out.externalMb = +(mem.external / 2 ** 20).toFixed(1);
      out.arrayBuffersMb = +(mem.arrayBuffers / 2 ** 20).toFixed(1);
      out.resources = countBy(await inspector.evaluate<string[]>('process.getActiveResourcesInfo()'));
      out.emitters = (await inspector.overInstances<Record<string, number>>("require('node:events').EventEmitter.prototype", EMITTERS_FN)) ?? undefined;
      if (role === 'server') out.socketIo = (await inspector.overInstances<ProcessSample['socketIo']>("require('socket.io').Namespace.prototype", SOCKET_IO_FN)) ?? undefined;
      await inspector.evaluate('globalThis.__soakLoop.reset()');
    } catch (err) {
      out.resources = { [`inspector error: ${(err as Error).message}`]: 1 };
    }
    return out;
  }

  inspector(pid: number): Promise<Inspector | null> {
    return this.inspectorFor(pid);
  }

  close(): void {
    for (const i of this.inspectors.values()) i.close();
  }
}

function countBy(items: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const i of items) out[i] = (out[i] ?? 0) + 1;
  return out;
}

/** The crawl worker: the server's child running worker-main.ts. */
export function workerPidOf(serverPid: number): number | undefined {
  return childPids(serverPid).find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('worker-main');
    } catch {
      return false;
    }
  });
}

const kb = (path: string) => (existsSync(path) ? Math.round(statSync(path).size / 1024) : 0);

/** Files and row counts of the database; rows of crawl-keyed tables whose crawl no longer exists. */
export function sampleDatabase(dbPath: string): Sample['db'] {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const rows: Record<string, number> = {};
    const orphans: Record<string, number> = {};
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_%' ESCAPE '\\'").all() as { name: string }[]).map((t) => t.name);
    for (const table of tables) {
      rows[table] = (db.prepare(`SELECT COUNT(*) AS n FROM "${table}"`).get() as { n: number }).n;
      const column = (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name).find((c) => c === 'crawlId' || c === 'crawl_id');
      // Adapted rules belong to the knowledge base and outlive the crawl that adapted them (docs/knowledge-base.md).
      if (column && table !== 'Crawl' && table !== 'AdaptedRule') {
        const n = (db.prepare(`SELECT COUNT(*) AS n FROM "${table}" WHERE "${column}" IS NOT NULL AND "${column}" NOT IN (SELECT id FROM Crawl)`).get() as { n: number }).n;
        if (n) orphans[table] = n;
      }
    }
    return {
      dbKb: kb(dbPath),
      walKb: kb(`${dbPath}-wal`),
      shmKb: kb(`${dbPath}-shm`),
      pages: db.pragma('page_count', { simple: true }) as number,
      freePages: db.pragma('freelist_count', { simple: true }) as number,
      rows,
      orphans,
    };
  } finally {
    db.close();
  }
}

/** Files under the data folder by top-level folder, and the crawl/export folders left for ids not in `live`. */
export function sampleDataDir(dataDir: string, live: { crawls: Set<number>; exports: Set<number> }): Sample['data'] {
  const byTop: Record<string, number> = {};
  const leftovers: string[] = [];
  let files = 0;
  const walk = (dir: string, top: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, top);
      else (files++, (byTop[top] = (byTop[top] ?? 0) + 1));
    }
  };
  for (const entry of readdirSync(dataDir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      walk(join(dataDir, entry.name), entry.name);
      for (const id of readdirSync(join(dataDir, entry.name))) {
        const owner = entry.name === 'exports' ? live.exports : live.crawls;
        if (/^\d+$/.test(id) && !owner.has(Number(id))) leftovers.push(`${entry.name}/${id}`);
      }
    } else (files++, (byTop['.'] = (byTop['.'] ?? 0) + 1));
  }
  return { files, byTop, leftovers };
}

/** Ids of the crawls and exports the database still has. */
export function liveIds(dbPath: string): { crawls: Set<number>; exports: Set<number> } {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return {
      crawls: new Set((db.prepare('SELECT id FROM Crawl').all() as { id: number }[]).map((r) => r.id)),
      exports: new Set((db.prepare('SELECT id FROM Export').all() as { id: number }[]).map((r) => r.id)),
    };
  } finally {
    db.close();
  }
}
