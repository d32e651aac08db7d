/**
 * What a real crawl writes into its records and index, read back with warcio: each page's
 * metadata record lists its links as Heritrix does (one `outlink:` line a link), a response keeps
 * the HTTP version the server sent, a response with two Content-Type lines is indexed (and its
 * capture row stored) with the first one's media type, and `tidemark check` takes the index.
 * A raw loopback server, for what node:http will not send; the real CLI.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import Database from 'better-sqlite3';
import { WARCParser } from 'warcio';
import { runCli } from '../../support/run-cli';
import { startRawServer, type FixtureServer } from '../../fixtures/servers/fixture-server';

const html = (body: string) => `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

const answers: Record<string, string> = {
  '/robots.txt': 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n',
  '/': html('<!doctype html><title>home</title><link rel="stylesheet" href="/s.css"><img src="/i.png"><a href="/old">old</a> <a href="/types">types</a> <a href="/moved">moved</a>'),
  '/s.css': 'HTTP/1.1 200 OK\r\nContent-Type: text/css\r\nContent-Length: 0\r\n\r\n',
  '/i.png': 'HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 0\r\n\r\n',
  // An old server: HTTP/1.0, the body read to the connection's end.
  '/old': 'HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<!doctype html><title>old</title>',
  '/types': 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nct',
  '/moved': 'HTTP/1.1 301 Moved Permanently\r\nLocation: /types\r\nContent-Length: 0\r\n\r\n',
};

/** Each record of the folder's WARC files: type, target and block, as warcio reads them. */
async function records(dir: string): Promise<{ type: string; url: string; block: string }[]> {
  const out: { type: string; url: string; block: string }[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.warc.gz')).sort()) {
    for await (const record of new WARCParser(createReadStream(join(dir, name)), { parseHttp: false })) {
      out.push({ type: record.warcType ?? '', url: record.warcTargetURI ?? '', block: Buffer.from(await record.readFully()).toString('latin1') });
    }
  }
  return out;
}

let server: FixtureServer;
let out: string;
let o: string;
let all: { type: string; url: string; block: string }[];
const block = (type: string, path: string) => all.find((r) => r.type === type && r.url === `${o}${path}`)?.block;

before(async () => {
  server = await startRawServer((socket: Socket, head: Buffer) => {
    const path = head.toString('latin1').split(' ')[1]!;
    socket.end(answers[path] ?? 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
  });
  o = server.url;
  out = mkdtempSync(join(tmpdir(), 'tm-warc-contents-'));
  const run = await runCli(['crawl', '--seed', `${o}/`, '--out', out, '--no-politeness', '--json']).done;
  assert.equal(run.code, 0, run.stderr.slice(-2000));
  all = await records(out);
});
after(async () => {
  await server.close();
  rmSync(out, { recursive: true, force: true });
});

test('each page\'s metadata record has one Heritrix `outlink: <url> <hop> <element/@attribute>` line a link', () => {
  assert.deepEqual(block('metadata', '/')!.split('\r\n').filter(Boolean).sort(), [
    // The site's icon, which no element names: the first page of the site asks for it (scope.includeFavicon).
    `outlink: ${o}/favicon.ico E implied/@favicon`,
    `outlink: ${o}/i.png E img/@src`,
    `outlink: ${o}/moved L a/@href`,
    `outlink: ${o}/old L a/@href`,
    `outlink: ${o}/s.css E link/@href`,
    `outlink: ${o}/types L a/@href`,
  ]);
  assert.equal(block('metadata', '/moved'), `outlink: ${o}/types R header/@location\r\n`);
});

test('a response keeps the HTTP version the server sent in its status line', () => {
  assert.equal(block('response', '/old'), 'HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<!doctype html><title>old</title>');
  assert.match(block('response', '/')!, /^HTTP\/1\.1 200 OK\r\n/);
});

test('a response with two Content-Type lines has the first one\'s media type, in the index and the capture row alike', () => {
  const line = readFileSync(join(out, 'index.cdxj'), 'utf8').split('\n').find((l) => l.includes(`"url":"${o}/types"`))!;
  assert.equal(JSON.parse(line.slice(line.indexOf('{'))).mime, 'text/html');
  const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
  try {
    assert.equal((db.prepare('SELECT mime FROM Capture WHERE url = ?').get(`${o}/types`) as { mime: string }).mime, 'text/html');
  } finally {
    db.close();
  }
});

test('the index agrees with its records, line by line, as `tidemark check` reads it', async () => {
  const check = await runCli(['check', out, '--json']).done;
  assert.equal(check.code, 0, check.stdout.slice(-2000));
});
