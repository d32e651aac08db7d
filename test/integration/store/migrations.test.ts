import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../../worker/store/sqlite';
import { applyMigrations, readMigrations, RENAMED_MIGRATIONS } from '../../../worker/store/migrator';
import { parsePrismaModels } from '../../support/prisma-schema';

const MIGRATIONS = 'prisma/migrations';

test('migrations apply on an empty database and are a no-op the second time', () => {
  const db = openSqlite(join(mkdtempSync(join(tmpdir(), 'tm-mig-')), 'a.db'));
  const first = applyMigrations(db, MIGRATIONS);
  assert.deepEqual(first, readMigrations(MIGRATIONS).map((m) => m.name));
  assert.ok(first.length >= 1);
  const second = applyMigrations(db, MIGRATIONS);
  assert.deepEqual(second, []);
  const rows = db.prepare('SELECT migration_name, checksum, finished_at FROM _prisma_migrations').all() as { migration_name: string; checksum: string; finished_at: string }[];
  assert.equal(rows.length, first.length);
  for (const row of rows) assert.ok(row.finished_at, `${row.migration_name} has finished_at`);
  db.close();
});

test('an applied migration whose file changed is refused', () => {
  const db = openSqlite(join(mkdtempSync(join(tmpdir(), 'tm-mig-')), 'b.db'));
  applyMigrations(db, MIGRATIONS);
  db.prepare("UPDATE _prisma_migrations SET checksum = 'tampered'").run();
  assert.throws(() => applyMigrations(db, MIGRATIONS), /changed after it was applied/);
  db.close();
});

test('the migrated database matches schema.prisma: every model and column, nullability and unique indexes', () => {
  const db = openSqlite(join(mkdtempSync(join(tmpdir(), 'tm-mig-')), 'c.db'));
  applyMigrations(db, MIGRATIONS);
  const models = parsePrismaModels(readFileSync('prisma/schema.prisma', 'utf8'));
  assert.ok(models.length >= 10, 'schema parsed');
  const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != '_prisma_migrations' AND name NOT LIKE 'frontier_%' AND name NOT LIKE 'engine_%'").all() as { name: string }[]).map((r) => r.name));
  assert.deepEqual([...tables].sort(), models.map((m) => m.name).sort(), 'tables = models');
  const sqlType: Record<string, string> = { Int: 'INTEGER', String: 'TEXT', DateTime: 'DATETIME', Float: 'REAL', Boolean: 'BOOLEAN', BigInt: 'BIGINT' };
  for (const model of models) {
    const columns = db.prepare(`PRAGMA table_info("${model.name}")`).all() as { name: string; type: string; notnull: number; pk: number }[];
    assert.deepEqual(columns.map((c) => c.name).sort(), model.fields.map((f) => f.name).sort(), `columns of ${model.name}`);
    for (const field of model.fields) {
      const column = columns.find((c) => c.name === field.name)!;
      assert.equal(column.type, sqlType[field.type], `${model.name}.${field.name} type`);
      assert.equal(column.notnull === 1 || column.pk === 1, !field.optional, `${model.name}.${field.name} nullability`);
    }
    const uniques = (db.prepare(`PRAGMA index_list("${model.name}")`).all() as { name: string; unique: number; origin: string }[])
      .filter((i) => i.unique && i.origin === 'c')
      .map((i) => (db.prepare(`PRAGMA index_info("${i.name}")`).all() as { name: string }[]).map((c) => c.name).join(','));
    assert.deepEqual(uniques.sort(), model.uniqueFields.sort(), `unique indexes of ${model.name}`);
  }
  db.close();
});

// Before, a folder that was not there applied nothing: the server went on with a database without
// tables (a server started from another folder looked for prisma/migrations there).
test('a migrations folder that is missing or empty is an error, not an empty list', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-mig-none-'));
  const db = openSqlite(join(dir, 'a.db'));
  try {
    assert.throws(() => applyMigrations(db, join(dir, 'prisma/migrations')), /migrations are missing: no folder .*prisma\/migrations/);
    assert.throws(() => applyMigrations(db, dir), /migrations are missing: no migration\.sql under/);
  } finally {
    db.close();
  }
});

/** A database migrated up to the migration `name` (left out): rows stored before it, as it will find them. */
function migratedBefore(name: string): ReturnType<typeof openSqlite> {
  const dir = mkdtempSync(join(tmpdir(), 'tm-mig-before-'));
  const before = join(dir, 'migrations');
  for (const m of readMigrations(MIGRATIONS).filter((m) => m.name < name)) cpSync(join(MIGRATIONS, m.name), join(before, m.name), { recursive: true });
  const db = openSqlite(join(dir, 'state.db'));
  applyMigrations(db, before);
  return db;
}

// Two migrations were renamed after versions had shipped with them: a database those versions made
// ran the migration again under its new name (Crawl_list_idx already exists, duplicate column
// cancelledBy), and neither the CLI's --out nor the server's data folder opened any more.
test('a database that applied a migration under its former name opens, and records the current name', () => {
  for (const [oldName, newName] of Object.entries(RENAMED_MIGRATIONS)) {
    const dir = mkdtempSync(join(tmpdir(), 'tm-mig-renamed-'));
    const old = join(dir, 'migrations');
    // The folder as those versions had it: the migrations before the old name, and it under that name.
    for (const m of readMigrations(MIGRATIONS).filter((m) => m.name < oldName)) cpSync(join(MIGRATIONS, m.name), join(old, m.name), { recursive: true });
    cpSync(join(MIGRATIONS, newName), join(old, oldName), { recursive: true });
    const db = openSqlite(join(dir, 'state.db'));
    try {
      applyMigrations(db, old);
      const applied = applyMigrations(db, MIGRATIONS);
      assert.ok(!applied.includes(newName), `${newName} is not run again`);
      assert.deepEqual(applyMigrations(db, MIGRATIONS), []);
      const names = (db.prepare('SELECT migration_name FROM _prisma_migrations ORDER BY migration_name').all() as { migration_name: string }[]).map((r) => r.migration_name);
      assert.deepEqual(names, readMigrations(MIGRATIONS).map((m) => m.name), 'one row per migration of the folder, by its current name');
    } finally {
      db.close();
    }
  }
});

/** Crawl 1 of ICD 1, for crawl-log rows to belong to. */
function insertCrawl(db: ReturnType<typeof openSqlite>): void {
  db.prepare("INSERT INTO Icd (name, definition, updatedAt) VALUES ('Harbour', '{}', CURRENT_TIMESTAMP)").run();
  db.prepare("INSERT INTO Crawl (icdId, definition, name) VALUES (1, '{}', 'Harbour')").run();
}

// Schedules set before time zones were times of day in UTC: the column added for the zone keeps them so.
test('a schedule stored before the time-zone migration stays in UTC after it', () => {
  const db = migratedBefore('20261129120000_schedule_time_zone');
  try {
    db.prepare("INSERT INTO Icd (name, definition, updatedAt) VALUES ('Harbour', '{}', CURRENT_TIMESTAMP)").run();
    db.prepare("INSERT INTO CrawlSchedule (icdId, cadence, minuteOfDay, nextRunAt, updatedAt) VALUES (1, 'daily', 180, '2026-11-30T03:00:00.000+00:00', CURRENT_TIMESTAMP)").run();
    // The zone's migration first, then any written after it.
    assert.equal(applyMigrations(db, MIGRATIONS)[0], '20261129120000_schedule_time_zone');
    assert.deepEqual(db.prepare('SELECT minuteOfDay, timeZone FROM CrawlSchedule').get(), { minuteOfDay: 180, timeZone: 'UTC' });
  } finally {
    db.close();
  }
});

// robots.txt's own crawl-log entries were told apart by their message before the subject column: a
// crawl resumed after the migration must leave those out of its failure counters as it did.
test('robots.txt entries logged before the subject column are marked robots; pages\' entries are not', () => {
  const db = migratedBefore('20261129150000_crawl_log_subject');
  try {
    insertCrawl(db);
    const add = db.prepare("INSERT INTO CrawlLogEntry (crawlId, url, status, outcome, message, at) VALUES (1, ?, ?, ?, ?, '2026-11-29T10:00:00.000+00:00')");
    add.run('http://dead.test/robots.txt', null, 'connect-refused', "robots.txt request got no answer (connect ECONNREFUSED); the host's URLs fail with this reason, unrequested, for 10 min; then robots.txt is tried again");
    add.run('http://live.test/robots.txt', 200, 'ok', 'robots.txt');
    add.run('http://dead.test/', null, 'connect-refused', 'connect ECONNREFUSED');
    add.run('http://live.test/', 200, 'ok', null);
    add.run('http://live.test/feed.xml', 200, 'ok', 'feed poll');
    assert.equal(applyMigrations(db, MIGRATIONS)[0], '20261129150000_crawl_log_subject');
    assert.deepEqual(db.prepare('SELECT url, status, subject FROM CrawlLogEntry ORDER BY id').all(), [
      { url: 'http://dead.test/robots.txt', status: null, subject: 'robots' },
      { url: 'http://live.test/robots.txt', status: 200, subject: 'robots' },
      { url: 'http://dead.test/', status: null, subject: null },
      { url: 'http://live.test/', status: 200, subject: null },
      { url: 'http://live.test/feed.xml', status: 200, subject: null },
    ]);
  } finally {
    db.close();
  }
});

// Pages a host's unanswered robots.txt kept from being requested were told apart by their message only
// before notRequested: the migration marks them, so the hosts report leaves them out of the fetches.
test('pages logged as not requested before the notRequested column are marked; other failures and robots.txt\'s entry are not', () => {
  const db = migratedBefore('20261130020000_crawl_log_not_requested');
  try {
    insertCrawl(db);
    const add = db.prepare("INSERT INTO CrawlLogEntry (crawlId, url, status, outcome, message, subject, at) VALUES (1, ?, ?, ?, ?, ?, '2026-11-29T10:00:00.000+00:00')");
    add.run('http://dead.test/robots.txt', null, 'connect-refused', "robots.txt request got no answer (connect ECONNREFUSED); the host's URLs fail with this reason, unrequested, for 10 min; then robots.txt is tried again", 'robots');
    add.run('http://dead.test/', null, 'connect-refused', 'no connection to the host for robots.txt (connect ECONNREFUSED); the page was not requested', null);
    add.run('http://silent.test/', null, 'headers-timeout', 'no answer from the host for robots.txt, tried twice (headers timeout); the page was not requested', null);
    add.run('http://live.test/', null, 'connect-refused', 'connect ECONNREFUSED', null);
    add.run('http://live.test/a', 200, 'ok', null, null);
    assert.equal(applyMigrations(db, MIGRATIONS)[0], '20261130020000_crawl_log_not_requested');
    assert.deepEqual(db.prepare('SELECT url, notRequested FROM CrawlLogEntry ORDER BY id').all(), [
      { url: 'http://dead.test/robots.txt', notRequested: 0 },
      { url: 'http://dead.test/', notRequested: 1 },
      { url: 'http://silent.test/', notRequested: 1 },
      { url: 'http://live.test/', notRequested: 0 },
      { url: 'http://live.test/a', notRequested: 0 },
    ]);
  } finally {
    db.close();
  }
});

// Revisits, recrawl refetches and feed polls that robots.txt's silence kept from being requested were
// logged unmarked until 19bb4ca; their message ends with robots.txt's reason after the request's own words.
test('revisits, refetches and feed polls logged as not requested before they were marked are marked; their real failures are not', () => {
  const db = migratedBefore('20261130060000_crawl_log_not_requested_refetches');
  try {
    insertCrawl(db);
    const add = db.prepare("INSERT INTO CrawlLogEntry (crawlId, url, status, outcome, message, durationMs, retries, at) VALUES (1, ?, ?, ?, ?, ?, ?, '2026-11-29T10:00:00.000+00:00')");
    add.run('http://dead.test/feed.xml', null, 'connect-refused', 'feed poll failed: no connection to the host for robots.txt (connect ECONNREFUSED)', 0, 0);
    add.run('http://silent.test/a', null, 'headers-timeout', 'coherence revisit; no answer about the page: no answer from the host for robots.txt, tried twice (headers timeout)', 0, 0);
    add.run('http://silent.test/b', null, 'headers-timeout', 'recrawl round 2; no answer about the page, retried in round 3: no answer from the host for robots.txt, tried twice (headers timeout)', 0, 0);
    add.run('http://live.test/feed.xml', null, 'connect-refused', 'feed poll failed: connect ECONNREFUSED', 0, 0);
    add.run('http://live.test/b', null, 'headers-timeout', 'coherence revisit; no answer about the page: headers timeout', 30_000, 2);
    assert.equal(applyMigrations(db, MIGRATIONS)[0], '20261130060000_crawl_log_not_requested_refetches');
    assert.deepEqual(db.prepare('SELECT url, notRequested FROM CrawlLogEntry ORDER BY id').all(), [
      { url: 'http://dead.test/feed.xml', notRequested: 1 },
      { url: 'http://silent.test/a', notRequested: 1 },
      { url: 'http://silent.test/b', notRequested: 1 },
      { url: 'http://live.test/feed.xml', notRequested: 0 },
      { url: 'http://live.test/b', notRequested: 0 },
    ]);
  } finally {
    db.close();
  }
});

// The crawl log's counts and the hosts report read tallies a trigger keeps from the migration on: a
// crawl logged before it has its entries counted by the migration itself.
test('the crawl-log tallies migration counts the entries logged before it; the trigger counts those after', () => {
  const db = migratedBefore('20261202010000_crawl_log_tallies');
  try {
    insertCrawl(db);
    const log = db.prepare("INSERT INTO CrawlLogEntry (crawlId, url, status, outcome, size, at, notRequested) VALUES (1, ?, ?, ?, ?, CURRENT_TIMESTAMP, ?)");
    log.run('https://a.test/x', 200, 'ok', 100, 0);
    log.run('https://a.test/y', 200, 'ok', 50, 0);
    log.run('https://b.test:8443', null, 'robots-unavailable', 0, 1);
    assert.equal(applyMigrations(db, MIGRATIONS)[0], '20261202010000_crawl_log_tallies');
    log.run('https://a.test/z', 404, 'ok', 5, 0);
    assert.deepEqual(db.prepare('SELECT outcome, status, entries FROM CrawlLogTally ORDER BY 1, 2').all(), [
      { outcome: 'ok', status: 200, entries: 2 },
      { outcome: 'ok', status: 404, entries: 1 },
      { outcome: 'robots-unavailable', status: 0, entries: 1 },
    ]);
    assert.deepEqual(db.prepare('SELECT host, outcome, notRequested, entries, bytes FROM CrawlHostTally ORDER BY 1, 2').all(), [
      { host: 'a.test', outcome: 'ok', notRequested: 0, entries: 3, bytes: 155 },
      { host: 'b.test:8443', outcome: 'robots-unavailable', notRequested: 1, entries: 1, bytes: 0 },
    ]);
  } finally {
    db.close();
  }
});

// The report's mimeTypes and records read tallies triggers keep from the migration on: a crawl's
// captures stored before it are counted by the migration itself, those without a media type as ''.
test('the capture tallies migration counts the captures stored before it; the trigger counts those after', () => {
  const db = migratedBefore('20261202060000_capture_tally');
  try {
    insertCrawl(db);
    const capture = db.prepare("INSERT INTO Capture (crawlId, url, status, mime, size, recordType, warcFile, warcOffset, warcLength, fetchedAt, durationMs) VALUES (1, ?, 200, ?, ?, ?, 'a.warc.gz', 0, ?, CURRENT_TIMESTAMP, 0)");
    capture.run('https://a.test/x', 'text/html', 100, 'response', 700);
    capture.run('https://a.test/y', 'text/html', 100, 'revisit', 300);
    capture.run('https://a.test/z', null, 5, 'response', 400);
    assert.equal(applyMigrations(db, MIGRATIONS)[0], '20261202060000_capture_tally');
    capture.run('https://a.test/w', 'text/html', 50, 'response', 600);
    assert.deepEqual(db.prepare('SELECT crawlId, mime, recordType, captures, bytes, warcBytes FROM CaptureTally ORDER BY 2, 3').all(), [
      { crawlId: 1, mime: '', recordType: 'response', captures: 1, bytes: 5, warcBytes: 400 },
      { crawlId: 1, mime: 'text/html', recordType: 'response', captures: 2, bytes: 150, warcBytes: 1_300 },
      { crawlId: 1, mime: 'text/html', recordType: 'revisit', captures: 1, bytes: 100, warcBytes: 300 },
    ]);
  } finally {
    db.close();
  }
});
