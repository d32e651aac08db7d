/**
 * A minimal Chrome DevTools Protocol client for a Node process started with
 * `--inspect=127.0.0.1:0`: enough to force a garbage collection, read the heap's size, evaluate an
 * expression (with the command-line API's `require`), count live objects of a class and write a
 * heap snapshot. Used by bench/soak.ts to look inside the cockpit's server and crawl worker.
 */
import { createWriteStream } from 'node:fs';
import { WebSocket } from 'undici';

interface Reply {
  id: number;
  result?: Record<string, unknown>;
  error?: { message: string };
}

export class Inspector {
  private nextId = 0;
  private readonly pending = new Map<number, (r: Reply) => void>();
  private readonly listeners = new Map<string, (params: Record<string, unknown>) => void>();

  private constructor(private readonly ws: WebSocket) {
    ws.onmessage = (e) => {
      const m = JSON.parse(String(e.data)) as Reply & { method?: string; params?: Record<string, unknown> };
      if (m.method) this.listeners.get(m.method)?.(m.params ?? {});
      else this.pending.get(m.id)?.(m), this.pending.delete(m.id);
    };
    ws.onclose = () => {
      for (const resolve of this.pending.values()) resolve({ id: 0, error: { message: 'inspector closed' } });
      this.pending.clear();
    };
  }

  static async connect(url: string): Promise<Inspector> {
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error(`cannot connect to ${url}`));
    });
    return new Inspector(ws);
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  async send<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = ++this.nextId;
    const reply = await new Promise<Reply>((resolve) => {
      this.pending.set(id, resolve);
      this.ws.send(JSON.stringify({ id, method, params }));
    });
    if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
    return reply.result as T;
  }

  /** The value of `expression` (JSON-serialisable), evaluated with `require` available. */
  async evaluate<T>(expression: string): Promise<T> {
    const r = await this.send<{ result: { value?: T; description?: string }; exceptionDetails?: unknown }>('Runtime.evaluate', {
      expression,
      includeCommandLineAPI: true,
      returnByValue: true,
      awaitPromise: true,
    });
    if (r.exceptionDetails) throw new Error(`evaluate ${expression}: ${r.result.description}`);
    return r.result.value as T;
  }

  /** Heap in use after a full garbage collection, in bytes. */
  async heapAfterGc(): Promise<{ used: number; total: number }> {
    await this.send('HeapProfiler.collectGarbage');
    const u = await this.send<{ usedSize: number; totalSize: number }>('Runtime.getHeapUsage');
    return { used: u.usedSize, total: u.totalSize };
  }

  /**
   * Runs `fn` (a function's source, `this` = the array) over every live object whose prototype chain
   * holds the object `prototypeExpression` evaluates to; null when that expression fails.
   */
  async overInstances<T>(prototypeExpression: string, fn: string): Promise<T | null> {
    // One object group for everything this asks for, released at the end: an array queryObjects
    // returns outside a group stays alive in the inspector's console and keeps its objects alive.
    const objectGroup = 'soak-probe';
    try {
      const proto = await this.send<{ result: { objectId?: string }; exceptionDetails?: unknown }>('Runtime.evaluate', { expression: prototypeExpression, includeCommandLineAPI: true, objectGroup });
      if (proto.exceptionDetails || !proto.result.objectId) return null;
      const { objects } = await this.send<{ objects: { objectId: string } }>('Runtime.queryObjects', { prototypeObjectId: proto.result.objectId, objectGroup });
      const r = await this.send<{ result: { value: T } }>('Runtime.callFunctionOn', { objectId: objects.objectId, functionDeclaration: fn, returnByValue: true, objectGroup });
      return r.result.value;
    } finally {
      await this.send('Runtime.releaseObjectGroup', { objectGroup });
    }
  }

  /** Writes a heap snapshot (forces a GC first, as V8 does) to `path`. */
  async writeHeapSnapshot(path: string): Promise<void> {
    const out = createWriteStream(path);
    this.listeners.set('HeapProfiler.addHeapSnapshotChunk', (p) => void out.write(p.chunk as string));
    await this.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    this.listeners.delete('HeapProfiler.addHeapSnapshotChunk');
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }

  close(): void {
    this.ws.close();
  }
}

/**
 * Counts a heap snapshot's objects by constructor name (V8's "object" and "closure" nodes), with
 * their self sizes: diff two of these to see what grew.
 */
export function summariseHeapSnapshot(json: string): Map<string, { count: number; bytes: number }> {
  const snap = JSON.parse(json) as { snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }; nodes: number[]; strings: string[] };
  const fields = snap.snapshot.meta.node_fields;
  const stride = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const types = snap.snapshot.meta.node_types[0];
  const out = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < snap.nodes.length; i += stride) {
    const type = types[snap.nodes[i + typeAt]!]!;
    if (type !== 'object' && type !== 'closure' && type !== 'native') continue;
    const name = `${type === 'object' ? '' : `(${type}) `}${snap.strings[snap.nodes[i + nameAt]!]}`;
    const entry = out.get(name) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += snap.nodes[i + sizeAt]!;
    out.set(name, entry);
  }
  return out;
}
