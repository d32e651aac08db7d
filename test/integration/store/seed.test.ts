import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSqlite } from '../../../worker/store/sqlite';
import { applyMigrations } from '../../../worker/store/migrator';
import { DEMO_ICD_NAME, demoIcd, demoMovedTo, firstAdmin, seedDatabase } from '../../../worker/store/seed';
import { withTempDir } from '../../support/temp-dir';

const A = 'http://127.0.0.1:3001';
const B = 'http://127.0.0.1:40123';

test('an archivist’s edits to the Demo ICD survive a restart; the ICD is written only when the demo site moved', async () => {
  await withTempDir('tm-seed-', async (dir) => {
    const db = openSqlite(join(dir, 'tidemark.db'));
    try {
      applyMigrations(db, 'prisma/migrations');
      seedDatabase(db, { admin: await firstAdmin(db, 'correct horse battery'), demoOrigin: A });
      const read = () => db.prepare('SELECT definition, updatedAt FROM Icd WHERE name = ?').get(DEMO_ICD_NAME) as { definition: string; updatedAt: string };
      const edited = { ...JSON.parse(read().definition), description: 'Our tide-gauge pilot', focus: { ...demoIcd(A).focus, keywords: [{ term: 'gauge', weight: 1 }] } };
      db.prepare("UPDATE Icd SET definition = ?, updatedAt = '2026-11-01 10:00:00.000+00:00' WHERE name = ?").run(JSON.stringify(edited), DEMO_ICD_NAME);

      seedDatabase(db, { admin: await firstAdmin(db), demoOrigin: A });
      assert.deepEqual(read(), { definition: JSON.stringify(edited), updatedAt: '2026-11-01 10:00:00.000+00:00' }, 'a restart on the same demo port writes nothing');

      seedDatabase(db, { admin: await firstAdmin(db), demoOrigin: B });
      const moved = JSON.parse(read().definition);
      assert.deepEqual(moved.seeds, [`${B}/`]);
      assert.equal(moved.description, 'Our tide-gauge pilot');
      assert.deepEqual(moved.focus.keywords, [{ term: 'gauge', weight: 1 }]);
      assert.notEqual(read().updatedAt, '2026-11-01 10:00:00.000+00:00', 'a moved definition is a new version (editors holding the old one are told)');
    } finally {
      db.close();
    }
  });
});

test('demoMovedTo moves the one loopback origin of the seeds, patterns included, and nothing else', () => {
  const icd = (seeds: string[], include: string[] = []) => JSON.stringify({ name: 'Demo', seeds, scope: { include } });
  assert.equal(demoMovedTo(icd([`${A}/`, `${A}/news/`], [`^${A}/news/`]), B), icd([`${B}/`, `${B}/news/`], [`^${B}/news/`]));
  // Another port that starts with the same digits is another origin.
  assert.equal(demoMovedTo(icd([`${A}/`], ['http://127.0.0.1:30011/x']), B), icd([`${B}/`], ['http://127.0.0.1:30011/x']));
  // Seeds elsewhere, on two origins, or already on the demo site: unchanged.
  for (const seeds of [['https://example.org/'], [`${A}/`, 'https://example.org/'], [`${A}/`, 'http://127.0.0.1:5000/'], [`${B}/`]]) {
    assert.equal(demoMovedTo(icd(seeds), B), icd(seeds));
  }
  assert.equal(demoMovedTo('not json', B), 'not json');
});
