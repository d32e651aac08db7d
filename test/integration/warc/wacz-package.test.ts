import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { PAGE_LIST_SHARE, writeWacz, type WaczInputFile } from '../../../worker/export/wacz-package';
import { readZip } from '../../support/read-wacz';
import { withTempDir } from '../../support/temp-dir';

const description = { title: 'T', description: 'd', created: new Date('2026-11-24T10:00:00Z') };

/** A package input with the size and sha256 an export measures when it verifies its files. */
function input(path: string, inPackage: string): WaczInputFile {
  const bytes = readFileSync(path);
  return { path, inPackage, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

test('a WACZ is written under a temporary name with its files stored, progress rising to 1, and its size and sha256 reported', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-wacz-'));
  try {
    writeFileSync(join(dir, 'a.warc.gz'), Buffer.alloc(200_000, 7));
    writeFileSync(join(dir, 'index.cdxj'), 'k 20261124100000 {}\n');
    const progress: number[] = [];
    const seenWhileWriting: [boolean, boolean][] = [];
    const out = join(dir, 'x.wacz');
    const packed = await writeWacz({
      outPath: out, warcs: [input(join(dir, 'a.warc.gz'), 'archive/a.warc.gz')], index: input(join(dir, 'index.cdxj'), 'indexes/index.cdx'),
      pages: [{ url: 'http://a.example/', ts: '2026-11-24T10:00:00Z' }], description,
      onProgress: (f) => {
        progress.push(f);
        seenWhileWriting.push([existsSync(out), existsSync(`${out}.open`)]);
      },
    });
    const bytes = readFileSync(out);
    assert.equal(packed.bytes, bytes.length);
    assert.match(packed.sha256, /^[0-9a-f]{64}$/);
    assert.ok(progress.length > 1 && progress.every((f, i) => f >= (progress[i - 1] ?? 0) && f <= 1), 'progress rises, never past 1');
    assert.equal(progress.at(-1), 1);
    assert.ok(seenWhileWriting.every(([whole, open]) => !whole && open), 'written as x.wacz.open, renamed once whole');
    const entries = await readZip(bytes);
    assert.deepEqual([...entries.keys()], ['archive/a.warc.gz', 'indexes/index.cdx', 'pages/pages.jsonl', 'datapackage.json', 'datapackage-digest.json']);
    assert.ok(entries.get('archive/a.warc.gz')!.bytes.equals(Buffer.alloc(200_000, 7)));
    assert.ok([...entries.values()].every((e) => e.stored));
    assert.deepEqual(readdirSync(dir).sort(), ['a.warc.gz', 'index.cdxj', 'x.wacz'], 'no temporary file left');
    const manifest = JSON.parse(entries.get('datapackage.json')!.bytes.toString('utf8')) as { mainPageUrl: string; mainPageDate: string };
    assert.equal(manifest.mainPageUrl, 'http://a.example/', 'the first page when no main page is given');
    assert.equal(manifest.mainPageDate, '2026-11-24T10:00:00Z');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Runs `fn` with a fresh folder holding a WARC file of `warcBytes` bytes and an index, as package inputs. */
function withInputs(warcBytes: number, fn: (dir: string, files: { warcs: WaczInputFile[]; index: WaczInputFile }) => Promise<void>): Promise<void> {
  return withTempDir('tm-wacz-', async (dir) => {
    writeFileSync(join(dir, 'a.warc.gz'), Buffer.alloc(warcBytes, 7));
    writeFileSync(join(dir, 'index.cdxj'), 'k 20261124100000 {}\n');
    await fn(dir, { warcs: [input(join(dir, 'a.warc.gz'), 'archive/a.warc.gz')], index: input(join(dir, 'index.cdxj'), 'indexes/index.cdx') });
  });
}

// Found by an exploratory session: a WACZ export with page text stood at 100 % for much of its
// time, while each page's text was still being read: progress counted the WARC files' bytes alone,
// copied into the package as the pages were listed.
test('progress counts the pages as they are listed, then the bytes copied, the page list\'s too, and reaches 1 only at the end', () => withInputs(300_000, async (dir, files) => {
  const progress: { fraction: number; listed: number }[] = [];
  let listed = 0;
  // Slow, as reading each page's text from the WARC files is.
  async function* pages() {
    for (let i = 0; i < 8; i++) {
      await new Promise((r) => setTimeout(r, 25));
      listed++;
      yield { url: `http://a.example/${i}`, ts: '2026-11-24T10:00:00Z', text: 'tide '.repeat(20_000) };
    }
  }
  await writeWacz({
    outPath: join(dir, 'x.wacz'), ...files, pages: pages(), pagesHaveText: true, expectedPages: 8, description,
    onProgress: (fraction) => progress.push({ fraction, listed }),
  });
  const fractions = progress.map((p) => p.fraction);
  assert.ok(fractions.every((f, i) => f >= (fractions[i - 1] ?? 0) && f <= 1), `progress rises, never past 1: ${fractions.join(' ')}`);
  assert.equal(fractions.at(-1), 1);
  const whileListing = progress.filter((p) => p.listed < 8);
  assert.ok(whileListing.length >= 7 && whileListing.every((p) => p.fraction <= PAGE_LIST_SHARE), `while the pages are listed: ${whileListing.map((p) => p.fraction).join(' ')}`);
  const beforeTheEnd = progress.filter((p) => p.fraction < 1);
  assert.ok(beforeTheEnd.some((p) => p.listed === 8 && p.fraction > PAGE_LIST_SHARE), 'then the copy of the files, the page list (800 KB) among them, moves it on');
}));

test('stopped while its pages are listed, before any file is copied, a package leaves no file behind', () => withInputs(1000, async (dir, files) => {
  const stop = new AbortController();
  function* pages() {
    for (let i = 0; i < 5; i++) {
      if (i === 2) stop.abort(new Error('cancelled by the manager'));
      yield { url: `http://a.example/${i}`, ts: '2026-11-24T10:00:00Z' };
    }
  }
  await assert.rejects(writeWacz({ outPath: join(dir, 'x.wacz'), ...files, pages: pages(), expectedPages: 5, description, signal: stop.signal }), /cancelled by the manager/);
  assert.deepEqual(readdirSync(dir).sort(), ['a.warc.gz', 'index.cdxj']);
}));

test('a file that cannot be read fails the package and leaves no file behind', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-wacz-'));
  try {
    writeFileSync(join(dir, 'a.warc.gz'), Buffer.alloc(1000, 1));
    mkdirSync(join(dir, 'index.cdxj'));
    const out = join(dir, 'x.wacz');
    await assert.rejects(
      writeWacz({ outPath: out, warcs: [input(join(dir, 'a.warc.gz'), 'archive/a.warc.gz')], index: { path: join(dir, 'index.cdxj'), inPackage: 'indexes/index.cdx', bytes: 4096, sha256: '00' }, pages: [], description }),
      /not a file/,
    );
    assert.equal(existsSync(out), false);
    assert.deepEqual(readdirSync(dir).sort(), ['a.warc.gz', 'index.cdxj'], 'no temporary file left');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
