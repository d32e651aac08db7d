import type Database from 'better-sqlite3';
import type { Role } from './roles';

/** What a change of a user's role came to. */
export type RoleChange = 'changed' | 'missing' | 'last-admin';

/**
 * Gives user `userId` the role `role`, unless that would leave no admin (the cockpit would have no
 * one left who can manage users). The count and the update are one write transaction on the
 * driver: with a count read before an update, as the route did, two admins demoting each other
 * (or themselves) at once each saw the other still admin and both were demoted.
 */
export function changeRole(db: Database.Database, userId: number, role: Role): RoleChange {
  return db
    .transaction((): RoleChange => {
      const current = db.prepare('SELECT role FROM User WHERE id = ?').pluck().get(userId) as string | undefined;
      if (current === undefined) return 'missing';
      if (current === 'admin' && role !== 'admin' && (db.prepare("SELECT COUNT(*) FROM User WHERE role = 'admin'").pluck().get() as number) <= 1) return 'last-admin';
      db.prepare('UPDATE User SET role = ? WHERE id = ?').run(role, userId);
      return 'changed';
    })
    .immediate();
}
