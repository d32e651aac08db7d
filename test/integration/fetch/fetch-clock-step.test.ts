/**
 * A fetch's duration is measured on the monotonic clock. On the wall clock, a step back while a
 * page was answered (NTP correcting a fast clock) gave the crawl log a duration of minus an hour,
 * and one forward a duration of hours. Real parts: a loopback server, the fetcher.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFetcher } from '../../../worker/fetch';
import { startFixtureServer } from '../../fixtures/servers/fixture-server';
import { stepWallClock } from '../../support/wall-clock-step';

const HOUR = 3_600_000;

test('a fetch during which the wall clock steps back or forward an hour takes its own time, not the step', async () => {
  const spoolDir = await mkdtemp(join(tmpdir(), 'tidemark-clock-step-'));
  let putBack: (() => void) | null = null;
  const server = await startFixtureServer({
    '/back': (_q, res) => {
      putBack = stepWallClock(-HOUR);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('answered after the clock went back');
    },
    '/forward': (_q, res) => {
      putBack = stepWallClock(HOUR);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('answered after the clock went forward');
    },
  });
  const fetcher = createFetcher({ userAgent: 'Tidemark-test/0.1', spoolDir, limits: { connectTimeoutMs: 5000, headersTimeoutMs: 5000, totalTimeoutMs: 10_000, maxBodyBytes: 1 << 20, maxRetries: 0 } });
  try {
    for (const path of ['/back', '/forward']) {
      try {
        const outcome = await fetcher.fetch(`${server.url}${path}`);
        assert.ok(outcome.ok, path);
        assert.ok(outcome.durationMs >= 0 && outcome.durationMs < HOUR / 2, `${path}: ${outcome.durationMs} ms`);
      } finally {
        (putBack as (() => void) | null)?.();
        putBack = null;
      }
    }
  } finally {
    await fetcher.close();
    await server.close();
    await rm(spoolDir, { recursive: true, force: true });
  }
});
