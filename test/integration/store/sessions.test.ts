/**
 * Sessions in the migrated SQLite database. A session nobody signs out of (a browser closed, a
 * script that signs in for each job) used to stay in the table for good after it expired:
 * bench/soak.ts counted one more row every two rounds. Expired sessions now end at the next sign-in.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { openSqlite, sqlDate } from '../../../worker/store/sqlite';
import { applyMigrations } from '../../../worker/store/migrator';
import { hashPassword } from '../../../worker/auth/password';
import { SessionStore } from '../../../worker/auth/sessions';
import { withTempDir } from '../../support/temp-dir';

test('a sign-in ends the sessions that expired; live ones stay', { timeout: 30_000 }, async () => {
  await withTempDir('tm-sessions-', async (dir) => {
    const db = openSqlite(join(dir, 'tidemark.db'));
    applyMigrations(db, resolve('prisma/migrations'));
    db.prepare("INSERT INTO User (username, passwordHash, role, createdAt) VALUES ('mara', ?, 'admin', ?)").run(await hashPassword('harbour-pass'), sqlDate(new Date()));
    const sessions = () => db.prepare('SELECT COUNT(*) FROM Session').pluck().get() as number;
    const store = new SessionStore(db, 12);
    const abandoned = [];
    for (let i = 0; i < 5; i++) abandoned.push(await store.login('mara', 'harbour-pass'));
    assert.equal(sessions(), 5);
    // Twelve hours later, as far as the sessions can tell.
    db.prepare('UPDATE Session SET expiresAt = ?').run(sqlDate(new Date(Date.now() - 1000)));
    assert.equal(store.lookup(abandoned[0]!.token), null, 'expired');

    const live = await store.login('mara', 'harbour-pass');
    assert.equal(sessions(), 1, 'the 5 expired sessions ended at the next sign-in');
    await store.login('mara', 'harbour-pass');
    assert.equal(sessions(), 2, 'a live session stays');
    assert.equal(store.lookup(live!.token)?.username, 'mara');
    db.close();
  });
});
