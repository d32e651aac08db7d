/**
 * An export takes the crawl's files into its own folder: WARC files hard-linked, and copied where
 * no link can be made (another file system: EXDEV). The copy was copyFileSync, which held the
 * worker's thread (every crawl it runs) for as long as a WARC file of a gigabyte took to copy. It is
 * now streamed, under a temporary name renamed when whole, removed on failure. Real files on disk;
 * the EXDEV is given through the link function snapshotCrawlFiles takes, and made for real between
 * /dev/shm and the temporary folder when they are two file systems.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { snapshotCrawlFiles } from '../../../worker/export/crawl-snapshot';
import { runExport } from '../../../worker/export/export-job';
import { WarcWriter } from '../../../worker/warc';
import { openSqlite, sqlDate } from '../../../worker/store/sqlite';
import { applyMigrations } from '../../../worker/store/migrator';
import { makeExchange } from '../../unit/warc/make-exchange';
import { withTempDir } from '../../support/temp-dir';

const WARC = 'tidemark-1-00000.warc.gz';
const INDEX = 'index.cdxj';

/** A crawl's folder in `dir` with an 8 MB WARC file (many reads of a stream) and an index. */
function crawlFolder(dir: string): { warc: Buffer; index: Buffer } {
  mkdirSync(dir, { recursive: true });
  const warc = randomBytes(8 * 1024 * 1024);
  const index = Buffer.from('org,example)/ 20261129000000 {"url":"http://example.org/"}\n');
  writeFileSync(join(dir, WARC), warc);
  writeFileSync(join(dir, INDEX), index);
  return { warc, index };
}

const exdev: (from: string, to: string) => Promise<void> = async (from, to) => {
  throw Object.assign(new Error(`EXDEV: cross-device link not permitted, link '${from}' -> '${to}'`), { code: 'EXDEV', errno: -18, syscall: 'link' });
};

test('a WARC file that cannot be linked (EXDEV) is copied as a stream, under a temporary name, with progress', { timeout: 60_000 }, async () => {
  await withTempDir('tm-snapshot-copy-', async (dir) => {
    const crawl = join(dir, 'crawl');
    const exp = join(dir, 'export');
    const { warc, index } = crawlFolder(crawl);
    const tried: string[] = [];
    const progress: [number, number][] = [];
    let seenPartial = false;
    const taking = snapshotCrawlFiles(crawl, exp, [INDEX, WARC], {
      link: (from, to) => (tried.push(from), exdev(from, to)),
      onProgress: (copied, toCopy) => {
        progress.push([copied, toCopy]);
        // Until the WARC file is whole it is only under its temporary name.
        if (copied < toCopy && existsSync(join(exp, `${WARC}.copying`))) {
          seenPartial = true;
          assert.equal(existsSync(join(exp, WARC)), false, 'the final name never names a partial copy');
        }
      },
    });
    // The call returns at once: the copy goes on while the event loop turns.
    assert.ok(taking instanceof Promise, 'the snapshot is asynchronous');
    assert.equal(existsSync(join(exp, WARC)), false, 'not copied before the call returned');
    let turns = 0;
    let settled = false;
    const turning = (async () => {
      while (!settled) await new Promise((r) => setImmediate(r)).then(() => turns++);
    })();
    await taking.finally(() => (settled = true));
    await turning;
    assert.ok(turns >= 10, `the event loop turned while 8 MB were copied (${turns} turns)`);

    assert.deepEqual(tried, [join(crawl, WARC)], 'only the WARC file is linked');
    assert.ok(readFileSync(join(exp, WARC)).equals(warc));
    assert.ok(readFileSync(join(exp, INDEX)).equals(index));
    assert.notEqual(statSync(join(exp, WARC)).ino, statSync(join(crawl, WARC)).ino, 'a copy, not a link');
    assert.deepEqual(readdirSync(exp).sort(), [INDEX, WARC], 'no temporary file left');
    assert.ok(seenPartial, 'the copy was seen under its temporary name');
    const total = warc.length + index.length;
    assert.ok(progress.length > 10, 'progress while the copy runs');
    assert.deepEqual(progress.at(-1), [total, total]);
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i]![0] >= progress[i - 1]![0], 'progress only grows');
  });
});

test('a linked WARC file costs no copy; a copy that fails leaves no temporary file and rejects with the error', { timeout: 60_000 }, async () => {
  await withTempDir('tm-snapshot-fail-', async (dir) => {
    const crawl = join(dir, 'crawl');
    crawlFolder(crawl);
    // Same file system, the real link: the export's WARC file is the crawl's.
    const linked = join(dir, 'linked');
    await snapshotCrawlFiles(crawl, linked, [WARC, INDEX]);
    assert.equal(statSync(join(linked, WARC)).ino, statSync(join(crawl, WARC)).ino);

    // A WARC file that is not there: the link fails, then the copy, naming it; nothing is left behind.
    const missing = join(dir, 'missing');
    await assert.rejects(snapshotCrawlFiles(crawl, missing, ['tidemark-1-00001.warc.gz'], { link: exdev }), (err: NodeJS.ErrnoException) => {
      assert.equal(err.code, 'ENOENT');
      assert.match(err.message, /tidemark-1-00001\.warc\.gz/);
      return true;
    });
    assert.deepEqual(readdirSync(missing), []);
    // One that fails after the temporary file was made (a folder where a file should be: EISDIR on the first read).
    mkdirSync(join(crawl, 'tidemark-1-00002.warc.gz'));
    const broken = join(dir, 'broken');
    await assert.rejects(snapshotCrawlFiles(crawl, broken, ['tidemark-1-00002.warc.gz'], { link: exdev }), { code: 'EISDIR' });
    assert.deepEqual(readdirSync(broken), []);
  });
});

const shmIsAnotherFileSystem = existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(tmpdir()).dev;

test('across two real file systems (/dev/shm and the temporary folder) the WARC file is copied whole', { timeout: 60_000, skip: shmIsAnotherFileSystem ? false : '/dev/shm is not another file system here' }, async () => {
  await withTempDir('tm-snapshot-exdev-', async (dir) => {
    const crawl = join('/dev/shm', `tm-snapshot-crawl-${process.pid}`);
    try {
      const { warc } = crawlFolder(crawl);
      const exp = join(dir, 'export');
      let last: [number, number] = [0, 0];
      await snapshotCrawlFiles(crawl, exp, [WARC, INDEX], { onProgress: (copied, toCopy) => (last = [copied, toCopy]) });
      assert.ok(readFileSync(join(exp, WARC)).equals(warc));
      assert.equal(statSync(join(crawl, WARC)).nlink, 1, 'no link was made');
      assert.equal(last[1], warc.length + statSync(join(crawl, INDEX)).size, 'the WARC file counted as copied');
      assert.deepEqual(readdirSync(exp).sort(), [INDEX, WARC]);
    } finally {
      rmSync(crawl, { recursive: true, force: true });
    }
  });
});

test('an export whose folder is on another file system than the crawl\'s copies the WARC files, verifies them, and its progress rises to 1', { timeout: 60_000, skip: shmIsAnotherFileSystem ? false : '/dev/shm is not another file system here' }, async () => {
  await withTempDir('tm-export-exdev-', async (dir) => {
    const warcDir = join('/dev/shm', `tm-export-crawl-${process.pid}`);
    const db = openSqlite(join(dir, 'state.db'));
    try {
      applyMigrations(db, resolve('prisma/migrations'));
      const writer = new WarcWriter({ dir: warcDir, crawlId: 'crawl-1', software: 'Tidemark/test', robotsPolicy: 'obey', userAgent: 'tidemark-test', threads: 1 });
      await writer.open();
      for (let i = 0; i < 300; i++) await writer.writeCapture(makeExchange({ url: `http://127.0.0.1:9/berth/${i}`, body: randomBytes(20_000) }));
      await writer.close();
      const now = sqlDate(new Date());
      const icdId = db.prepare("INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES ('x', '{}', ?, ?)").run(now, now).lastInsertRowid;
      const crawlId = Number(db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) VALUES (?, '{}', 'x', 'finished', 'stop', ?)").run(icdId, now).lastInsertRowid);
      const exportId = Number(db.prepare("INSERT INTO Export (crawlId, status, createdAt) VALUES (?, 'pending', ?)").run(crawlId, now).lastInsertRowid);
      // Every progress the export stores, in order.
      db.exec('CREATE TABLE progress_seen (p REAL); CREATE TRIGGER progress_kept AFTER UPDATE OF progress ON Export BEGIN INSERT INTO progress_seen VALUES (NEW.progress); END;');
      const exportDir = join(dir, 'exports', String(exportId));
      await runExport(db, { exportId, crawlId, warcDir, exportDir });

      const row = db.prepare('SELECT status, error, files FROM Export WHERE id = ?').get(exportId) as { status: string; error: string | null; files: string };
      assert.equal(row.status, 'done', row.error ?? '');
      const listed = JSON.parse(row.files) as { name: string; sha256: string }[];
      const warcs = listed.filter((f) => f.name.endsWith('.warc.gz'));
      assert.ok(warcs.length >= 1);
      for (const f of warcs) {
        assert.equal(statSync(join(warcDir, f.name)).nlink, 1, `${f.name} copied, not linked`);
        assert.ok(readFileSync(join(exportDir, f.name)).equals(readFileSync(join(warcDir, f.name))));
      }
      assert.deepEqual(readdirSync(exportDir).filter((n) => n.endsWith('.copying')), []);
      const seen = db.prepare('SELECT p FROM progress_seen ORDER BY rowid').pluck().all() as number[];
      assert.deepEqual(seen, [...seen].sort((a, b) => a - b), 'progress never goes back');
      assert.equal(seen.at(-1), 1);
      assert.ok(seen.filter((p) => p > 0 && p < 1).length >= 10, `progress moves on the way (${seen.length} values)`);
    } finally {
      db.close();
      rmSync(warcDir, { recursive: true, force: true });
    }
  });
});
