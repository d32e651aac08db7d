/**
 * Replays archives in webrecorder's ReplayWeb.page, offline: a loopback server hands out its
 * prebuilt ui.js and sw.js under /replay/, the archive files under /archive/, and an embed page
 * for each replay. The browser side waits for the frame that shows the archived document.
 * ReplayWeb.page reads the format from the served name (`.warc.gz`, `.warc`, `.wacz`).
 */
import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Frame, Page } from 'playwright-core';
import { startFixtureServer, type RouteHandler } from '../fixtures/servers/fixture-server';
import { byteRange, exportContentType } from '../../app/lib/server/export-download';

/** What a replay shows. */
export interface ReplayedPage {
  /** The frame holding the archived document: evaluate in it to inspect the replay. */
  frame: Frame;
  /** The archived URL the frame shows (a redirect's target once it was followed). */
  url: string;
  /** The frame's `document.body.innerText`; ReplayWeb.page's "Archived Page Not Found" page when the archive lacks the URL. */
  text: string;
}

/** A running replay server. */
export interface ReplayServer {
  /** `http://127.0.0.1:<port>`: a secure context, as ReplayWeb.page's service worker needs. */
  origin: string;
  /**
   * Opens the embed for archive `source` (a served name) at `url` in `page` (at the capture
   * nearest `ts`, 14 digits, when given), and waits up to `timeoutMs` for the replayed document to
   * finish loading.
   */
  replay(page: Page, source: string, url: string, opts?: { timeoutMs?: number; ts?: string }): Promise<ReplayedPage>;
  /**
   * Opens the archive's page list (ReplayWeb.page's own view, without a URL) in `page`, types
   * `query` into its search box ("Search by Page URL, Title, or Text") and returns the URLs of
   * the pages it lists.
   */
  searchPages(page: Page, source: string, query: string): Promise<string[]>;
  close(): Promise<void>;
}

const PACKAGE_DIR = dirname(createRequire(import.meta.url).resolve('replaywebpage/index.html'));

/**
 * The replay frame's URL: `/replay/w/<collection>/<timestamp>mp_/<archived URL>`; from a WACZ,
 * `/replay/w/<collection>/:<file digest>/<timestamp>mp_/<archived URL>`.
 */
const REPLAY_FRAME_URL = /\/replay\/w\/(?:[^/]+\/)+?\d*mp_\/(.+)$/;

const escapeAttribute = (s: string) => s.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/**
 * Starts the server. `archives` maps each served name (e.g. `crawl.warc.gz`, `crawl.wacz`) to
 * its file on disk; the files are read on each request, so they may be written after the start.
 */
export async function startReplayServer(archives: Record<string, string>): Promise<ReplayServer> {
  const routes: Record<string, RouteHandler> = {
    '/replay/ui.js': (req, res) => sendFile(req, res, join(PACKAGE_DIR, 'ui.js'), 'text/javascript'),
    '/replay/sw.js': (req, res) => sendFile(req, res, join(PACKAGE_DIR, 'sw.js'), 'text/javascript'),
    '/embed.html': (req, res) => {
      const query = new URL(req.url ?? '/', 'http://x').searchParams;
      const source = escapeAttribute(`/archive/${query.get('source')}`);
      // Without a URL: the archive's own view (its pages and their search), not a replay alone.
      const target = query.get('url') === null ? '' : `url="${escapeAttribute(query.get('url')!)}" embed="replayonly"`;
      const ts = query.get('ts') === null ? '' : ` ts="${escapeAttribute(query.get('ts')!)}"`;
      // The embed reloads its frame three times, 100 ms apart, waiting for its service worker to take
      // control, then gives up: on a busy machine installing sw.js takes longer. So the page first
      // registers the same worker (same URL, so the embed's own registration finds it) and waits
      // until it is active (not through serviceWorker.ready: this page is outside its scope).
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<script src="/replay/ui.js"></script>
<template id="embed"><replay-web-page style="height:600px;display:block" source="${source}" ${target}${ts} replayBase="/replay/"></replay-web-page></template>
<script type="module">
  const registration = await navigator.serviceWorker.register('/replay/sw.js?serveIndex=1', { scope: '/replay/' });
  const worker = registration.installing ?? registration.waiting ?? registration.active;
  if (worker.state !== 'activated') await new Promise((resolve) => worker.addEventListener('statechange', () => worker.state === 'activated' && resolve()));
  document.body.append(document.getElementById('embed').content);
</script>`);
    },
  };
  for (const [name, path] of Object.entries(archives)) {
    // With the Content-Type the cockpit's export downloads give them (application/zip for a WACZ,
    // read by range; application/warc for a WARC, read whole, as bytes: no Content-Encoding), so
    // ReplayWeb.page is shown what an archivist's download link would give it.
    const type = exportContentType(name);
    routes[`/archive/${name}`] = (req, res) => sendFile(req, res, path, type);
  }
  const server = await startFixtureServer(routes);

  async function replay(page: Page, source: string, url: string, opts: { timeoutMs?: number; ts?: string } = {}): Promise<ReplayedPage> {
    if (!(source in archives)) throw new Error(`No archive served as ${source}`);
    const timeoutMs = opts.timeoutMs ?? 30_000;
    const consoleLines: string[] = [];
    const onConsole = (m: { text(): string }) => consoleLines.push(m.text());
    page.on('console', onConsole);
    try {
      await page.goto(`${server.url}/embed.html?${new URLSearchParams({ source, url, ...(opts.ts ? { ts: opts.ts } : {}) })}`);
      for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(100)) {
        for (const frame of page.frames()) {
          const archived = REPLAY_FRAME_URL.exec(frame.url())?.[1];
          if (!archived) continue;
          // A frame that navigates (a redirect being followed) throws here: look again.
          const text = await frame
            .evaluate(() => (document.readyState === 'complete' ? document.body?.innerText ?? '' : null))
            .catch(() => null);
          if (text !== null) return { frame, url: archived, text };
        }
      }
      throw new Error(
        `ReplayWeb.page did not show ${url} from ${source} within ${timeoutMs} ms.\n` +
          `Frames: ${page.frames().map((f) => f.url()).join(', ')}\nConsole (last 10): ${consoleLines.slice(-10).join(' | ')}`,
      );
    } finally {
      page.off('console', onConsole);
    }
  }

  async function searchPages(page: Page, source: string, query: string): Promise<string[]> {
    if (!(source in archives)) throw new Error(`No archive served as ${source}`);
    await page.goto(`${server.url}/embed.html?${new URLSearchParams({ source })}`);
    const app = page.frameLocator('replay-web-page iframe');
    const search = app.getByPlaceholder('Search by Page URL, Title, or Text');
    // The list counts its pages once the package's pages.jsonl is loaded.
    await app.getByText(/^\d+ pages?$/).waitFor({ timeout: 30_000 });
    await search.fill(query);
    // Searching adds a "Match" column (the rank) to the list.
    await app.getByText('Match', { exact: true }).waitFor({ timeout: 30_000 });
    // Each listed page is a wr-page-entry; its URL is among its keyword-mark texts (those mark the
    // matches), and so is its title, which is the URL again for a page without one.
    const urls: string[] = [];
    for (const entry of await app.locator('wr-page-entry').all()) {
      const texts = (await entry.locator('keyword-mark').allTextContents()).map((t) => t.trim());
      const url = texts.findLast((t) => /^https?:\/\//.test(t));
      if (url) urls.push(url);
    }
    return urls;
  }

  return { origin: server.url, replay, searchPages, close: server.close };
}

/** Serves a file whole, or the single byte range asked for (`Range: bytes=a-b`, `a-`, `-n`). */
function sendFile(req: IncomingMessage, res: ServerResponse, path: string, type: string): void {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' }).end(`${path} cannot be read`);
    return;
  }
  const headers = { 'content-type': type, 'accept-ranges': 'bytes', 'cache-control': 'no-store' };
  // The cockpit's own range logic (its export downloads), so ReplayWeb.page's range reads exercise it.
  const range = byteRange(req.headers.range, size);
  if (range === 'unsatisfiable') {
    res.writeHead(416, { ...headers, 'content-length': '0', 'content-range': `bytes */${size}` }).end();
    return;
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  res.writeHead(range ? 206 : 200, {
    ...headers,
    'content-length': String(end - start + 1),
    ...(range ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
  });
  if (req.method === 'HEAD' || end < start) res.end();
  else createReadStream(path, { start, end }).on('error', () => res.destroy()).pipe(res);
}
