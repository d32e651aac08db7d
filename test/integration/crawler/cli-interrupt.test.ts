import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startRawServer } from '../../fixtures/servers/fixture-server';
import { runCli } from '../../support/run-cli';
import { withTempDir } from '../../support/temp-dir';
import { verifyWarcFile } from '../../../worker/warc';
import { readdirSync } from 'node:fs';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('SIGTERM while a server trickles a body: the CLI stops within its grace period, the URL is queued again, not failed, and a resumed run captures it once', { timeout: 90_000 }, async () => {
  let trickling = true;
  const timers = new Set<NodeJS.Timeout>();
  const server = await startRawServer((socket, head) => {
    const path = head.toString('latin1').split(' ')[1];
    const reply = (type: string, body: string) => socket.write(`HTTP/1.1 200 OK\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    if (path === '/') return void reply('text/html', '<a href="/slow">slow</a> <a href="/a">a</a>');
    if (path === '/slow' && trickling) {
      // Headers, then a byte a second: the default 120 s budget would hold a pause that long.
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n<p>');
      const timer = setInterval(() => socket.write('.'), 1000);
      timers.add(timer);
      return void socket.on('close', () => clearInterval(timer));
    }
    if (path === '/slow') return void reply('text/html', '<p>slow, whole this time</p>');
    if (path === '/a') return void reply('text/html', '<p>a</p>');
    socket.write('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
  });
  try {
    await withTempDir('tm-cli-interrupt-', async (out) => {
      const args = ['crawl', '--seed', `${server.url}/`, '--out', out, '--no-politeness', '--json'];
      const first = runCli(args);
      const deadline = Date.now() + 30_000;
      while (!server.log.some((r) => r.path === '/slow') && Date.now() < deadline) await sleep(20);
      await sleep(300);
      first.child.kill('SIGTERM');
      const stopped = await first.done;
      assert.equal(stopped.code, 3, `exit code 3, interrupted (stderr: ${stopped.stderr.slice(-500)})`);
      assert.equal(JSON.parse(stopped.stdout.trim()).outcome, 'paused');

      const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
      const slowUrl = `${server.url}/slow`;
      assert.equal(db.prepare('SELECT COUNT(*) FROM Capture WHERE url = ?').pluck().get(slowUrl), 0, 'nothing of the cut fetch is kept');
      assert.equal(db.prepare('SELECT COUNT(*) FROM CrawlLogEntry WHERE url = ?').pluck().get(slowUrl), 0, 'and it is no failure');
      db.close();

      trickling = false;
      const second = await runCli(args).done;
      assert.equal(second.code, 0, second.stderr);
      assert.equal(JSON.parse(second.stdout.trim()).outcome, 'finished');
      const again = new Database(join(out, 'tidemark-state.db'), { readonly: true });
      const captures = again.prepare('SELECT url, status FROM Capture WHERE url = ?').all(slowUrl);
      again.close();
      assert.deepEqual(captures, [{ url: slowUrl, status: 200 }]);
      for (const name of readdirSync(out).filter((n) => n.endsWith('.warc.gz'))) assert.deepEqual((await verifyWarcFile(join(out, name))).errors, [], name);
    });
  } finally {
    for (const timer of timers) clearInterval(timer);
    await server.close();
  }
});
