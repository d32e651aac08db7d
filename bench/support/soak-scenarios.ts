/**
 * What bench/soak.ts does to the cockpit in one round, as an archivist, a curator and their browser
 * tabs would: crawls started, paused, resumed, stopped, finished, exported (WARC and WACZ),
 * downloaded (whole, by range, or given up half-way), deleted; the crawl page's polls; socket.io
 * clients that subscribe to a crawl's room and leave in every way a tab can.
 */
import { io, type Socket } from 'socket.io-client';
import type { ApiClient } from '../../test/support/api-client';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TERMINAL = ['finished', 'stopped', 'failed'];

export interface SoakIcds {
  /** 25 quick pages: runs to its end. */
  small: number;
  /** 120 pages at 30 ms each, 2 at once: long enough to pause, resume and stop. */
  slow: number;
  /** A topical site with focus on: the analysis thread. */
  focused: number;
  /** Visit–revisit capture of the small site: coherence tables and certificate. */
  revisit: number;
  /** The awkward site (redirect loops, a 50 MB page spooled to disk, a gzip bomb, resets). */
  awkward: number;
  /** 30 incompressible pages of 200 KB: exports large enough to give up on half-way. */
  bulky: number;
}

export interface RoundCounters {
  crawls: number;
  exports: number;
  downloads: number;
  abortedDownloads: number;
  sockets: number;
  socketEvents: number;
  polls: number;
  errors: string[];
}

export const newCounters = (): RoundCounters => ({ crawls: 0, exports: 0, downloads: 0, abortedDownloads: 0, sockets: 0, socketEvents: 0, polls: 0, errors: [] });

interface CrawlView {
  id: number;
  status: string;
  stats: { fetched?: number } | null;
}

interface ExportView {
  id: number;
  status: string;
  error: string | null;
  files: { name: string; bytes: number }[];
}

/** Everything a scenario needs. */
export interface ScenarioEnv {
  api: ApiClient;
  baseUrl: string;
  icds: SoakIcds;
  counters: RoundCounters;
  /** Long waits (a worker killed on purpose restarts with a backoff). */
  timeoutMs: number;
}

async function crawlView(env: ScenarioEnv, id: number): Promise<CrawlView> {
  return env.api.json<CrawlView>('GET', `/api/crawls/${id}`);
}

async function waitFor(env: ScenarioEnv, id: number, done: (c: CrawlView) => boolean, what: string): Promise<CrawlView> {
  let view = await crawlView(env, id);
  for (const end = Date.now() + env.timeoutMs; !done(view); await sleep(150)) {
    if (Date.now() > end) throw new Error(`crawl ${id}: timed out waiting for ${what} (status ${view.status}, ${view.stats?.fetched ?? 0} pages)`);
    view = await crawlView(env, id);
  }
  return view;
}

const atLeast = (n: number) => (c: CrawlView) => (c.stats?.fetched ?? 0) >= n || TERMINAL.includes(c.status);
const statusIn = (...wanted: string[]) => (c: CrawlView) => wanted.includes(c.status);

async function control(env: ScenarioEnv, id: number, action: 'pause' | 'resume' | 'stop'): Promise<void> {
  const res = await env.api.request('POST', `/api/crawls/${id}/control`, { action });
  // A crawl that finished meanwhile cannot be paused or stopped any more: fine.
  if (res.status !== 200 && res.status !== 409) throw new Error(`control ${action} → ${res.status}: ${await res.text()}`);
  await res.body?.cancel();
}

/** The crawl page's polls (queries.ts), every `everyMs`, until stopped. */
function pollCrawlPage(env: ScenarioEnv, id: number, everyMs = 700): () => Promise<void> {
  let running = true;
  const paths = ['/api/crawls', `/api/crawls/${id}`, `/api/crawls/${id}/captures?page=1`, `/api/crawls/${id}/log?page=1`, `/api/crawls/${id}/report`, `/api/crawls/${id}/throughput`, `/api/crawls/${id}/relevance`, `/api/crawls/${id}/frontier/top`, `/api/crawls/${id}/exports`];
  const loop = (async () => {
    while (running) {
      for (const path of paths) {
        const res = await env.api.request('GET', path).catch(() => null);
        await res?.arrayBuffer().catch(() => undefined);
        env.counters.polls++;
      }
      await sleep(everyMs);
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}

export type SocketExit = 'unsubscribe' | 'disconnect' | 'drop';

/** A browser tab on the crawl's page: subscribes to its room and counts what arrives; `leave` ends it as asked. */
async function openTab(env: ScenarioEnv, crawlId: number, transport: 'websocket' | 'polling'): Promise<{ leave(how: SocketExit): void }> {
  const socket: Socket = io(env.baseUrl, { transports: [transport], reconnection: false, forceNew: true, extraHeaders: { cookie: env.api.cookie } });
  socket.onAny(() => void env.counters.socketEvents++);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const ack = (await socket.timeout(5000).emitWithAck('subscribe', { crawlId })) as { ok: boolean };
  if (!ack.ok) throw new Error(`subscribe ${crawlId} refused`);
  env.counters.sockets++;
  return {
    leave(how) {
      if (how === 'unsubscribe') socket.emit('unsubscribe', { crawlId });
      // A tab closed or a laptop put to sleep: the connection ends without a goodbye.
      if (how === 'drop') (socket.io.engine as unknown as { transport: { ws?: { _socket?: { destroy(): void } } } }).transport.ws?._socket?.destroy();
      setTimeout(() => socket.disconnect(), how === 'unsubscribe' ? 50 : 0);
    },
  };
}

/** Asks for an export and waits for it; null when it failed (the error is counted). */
async function exportCrawl(env: ScenarioEnv, crawlId: number, body: Record<string, unknown>): Promise<ExportView | null> {
  let exp = await env.api.json<ExportView>('POST', `/api/crawls/${crawlId}/exports`, body);
  for (const end = Date.now() + env.timeoutMs; !['done', 'failed'].includes(exp.status); await sleep(200)) {
    if (Date.now() > end) throw new Error(`export ${exp.id} timed out (${exp.status})`);
    exp = await env.api.json<ExportView>('GET', `/api/exports/${exp.id}`);
  }
  env.counters.exports++;
  if (exp.status === 'failed') {
    env.counters.errors.push(`export ${exp.id} of crawl ${crawlId} failed: ${exp.error}`);
    return null;
  }
  return exp;
}

/** Downloads the export's files: `whole`, one `range`, or `abort` after the first bytes (a download given up on). */
async function download(env: ScenarioEnv, exp: ExportView, how: 'whole' | 'range' | 'abort'): Promise<void> {
  for (const file of exp.files) {
    const path = `/api/exports/${exp.id}/files/${encodeURIComponent(file.name)}`;
    if (how === 'abort') {
      const controller = new AbortController();
      const res = await fetch(`${env.baseUrl}${path}`, { headers: { cookie: env.api.cookie }, signal: controller.signal });
      const reader = res.body!.getReader();
      await reader.read();
      controller.abort();
      await reader.cancel().catch(() => undefined);
      env.counters.abortedDownloads++;
      continue;
    }
    const res = await env.api.request('GET', path, undefined, how === 'range' ? { range: 'bytes=0-1023' } : {});
    const bytes = (await res.arrayBuffer()).byteLength;
    const expected = how === 'range' ? Math.min(1024, file.bytes) : file.bytes;
    if (bytes !== expected) env.counters.errors.push(`download ${path}: ${bytes} bytes, expected ${expected} (status ${res.status})`);
    env.counters.downloads++;
  }
}

async function deleteCrawl(env: ScenarioEnv, id: number): Promise<void> {
  for (const end = Date.now() + env.timeoutMs; ; await sleep(200)) {
    const res = await env.api.request('DELETE', `/api/crawls/${id}`);
    await res.body?.cancel();
    if (res.status === 204) return;
    // 409: still pausing/stopping, or an export is under way.
    if (res.status !== 409 || Date.now() > end) throw new Error(`delete crawl ${id} → ${res.status}`);
  }
}

export type ScenarioName = 'finish' | 'pause-resume' | 'stop' | 'focused' | 'revisit' | 'paused-delete' | 'awkward' | 'bulky';

/**
 * Runs one crawl through a scenario, with its page polled and two tabs open on it, and deletes it.
 * `variant` picks among the ways a scenario may export, download and leave (so rounds differ).
 */
export async function runScenario(env: ScenarioEnv, name: ScenarioName, variant: number): Promise<void> {
  const icdId = { finish: env.icds.small, 'pause-resume': env.icds.slow, stop: env.icds.slow, focused: env.icds.focused, revisit: env.icds.revisit, 'paused-delete': env.icds.slow, awkward: env.icds.awkward, bulky: env.icds.bulky }[name];
  const crawl = await env.api.json<CrawlView>('POST', '/api/crawls', { icdId });
  env.counters.crawls++;
  const stopPolling = pollCrawlPage(env, crawl.id);
  const exits: SocketExit[] = ['unsubscribe', 'disconnect', 'drop'];
  const tabs = await Promise.all([openTab(env, crawl.id, 'websocket'), openTab(env, crawl.id, variant % 2 ? 'polling' : 'websocket')]);
  try {
    switch (name) {
      case 'finish':
      case 'revisit':
      case 'awkward':
        await waitFor(env, crawl.id, statusIn(...TERMINAL), 'its end');
        break;
      case 'focused':
        if (variant % 2) {
          await waitFor(env, crawl.id, atLeast(8), '8 pages');
          await control(env, crawl.id, 'stop');
        }
        await waitFor(env, crawl.id, statusIn(...TERMINAL), 'its end');
        break;
      case 'pause-resume':
        await waitFor(env, crawl.id, atLeast(10), '10 pages');
        await control(env, crawl.id, 'pause');
        await waitFor(env, crawl.id, statusIn('paused', ...TERMINAL), 'the pause');
        // An export of the paused crawl holds it paused until done.
        if (variant % 3 === 0) await exportCrawl(env, crawl.id, { format: 'warc' });
        await control(env, crawl.id, 'resume');
        await waitFor(env, crawl.id, atLeast(30), '30 pages');
        await control(env, crawl.id, 'stop');
        await waitFor(env, crawl.id, statusIn(...TERMINAL), 'the stop');
        break;
      case 'stop':
        await waitFor(env, crawl.id, atLeast(5), '5 pages');
        await control(env, crawl.id, 'stop');
        await waitFor(env, crawl.id, statusIn(...TERMINAL), 'the stop');
        break;
      case 'paused-delete':
        await waitFor(env, crawl.id, atLeast(5), '5 pages');
        await control(env, crawl.id, 'pause');
        await waitFor(env, crawl.id, statusIn('paused', ...TERMINAL), 'the pause');
        break;
      case 'bulky':
        await waitFor(env, crawl.id, statusIn(...TERMINAL), 'its end');
        break;
    }
    if (name !== 'paused-delete' && name !== 'revisit') {
      const format = variant % 2 ? 'wacz' : 'warc';
      const exp = await exportCrawl(env, crawl.id, { format, ...(format === 'wacz' && variant % 4 === 1 ? { pageText: true } : {}) });
      if (exp) await download(env, exp, name === 'bulky' ? 'abort' : (['whole', 'range', 'whole'] as const)[variant % 3]!);
      // A collection: its own WARC files and index.
      if (variant % 5 === 0 && name === 'finish') {
        const sel = await exportCrawl(env, crawl.id, { selection: { urlContains: 'page/1' } });
        if (sel) await download(env, sel, 'whole');
      }
    }
  } finally {
    tabs.forEach((tab, i) => tab.leave(exits[(variant + i) % exits.length]!));
    await stopPolling();
  }
  await deleteCrawl(env, crawl.id);
}
