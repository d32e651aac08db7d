import type Database from 'better-sqlite3';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { sqlDate, runInTransaction } from '../store/sqlite';
import { hashPassword, verifyPassword } from './password';

export const SESSION_COOKIE = 'tidemark_session';
export const CSRF_HEADER = 'x-csrf-token';

export interface SessionUser {
  id: number;
  username: string;
  role: string;
  csrfToken: string;
}

const tokenId = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Sessions live in the database (table Session) keyed by the sha256 of the cookie's token, so a
 * leaked database does not leak live cookies. The driver is used directly because the socket.io
 * handshake and every route handler check a session.
 */
export class SessionStore {
  constructor(private readonly db: Database.Database, private readonly lifetimeHours: number) {}

  /** Checks credentials; on success creates a session and returns its token and CSRF token. */
  async login(username: string, password: string): Promise<{ token: string; user: SessionUser } | null> {
    const row = this.db.prepare('SELECT id, username, role, passwordHash FROM User WHERE username = ?').get(username) as
      | { id: number; username: string; role: string; passwordHash: string }
      | undefined;
    // Hash anyway when the user is unknown, so timing does not reveal which usernames exist.
    const ok = await verifyPassword(password, row?.passwordHash ?? 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAA');
    if (!row || !ok) return null;
    const token = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(24).toString('base64url');
    const now = new Date();
    const expires = new Date(now.getTime() + this.lifetimeHours * 3600_000);
    runInTransaction(this.db, () => {
      // Sessions nobody signed out of stay until they expire; ended here, or the table grows with every sign-in for good.
      this.db.prepare('DELETE FROM Session WHERE expiresAt < ?').run(sqlDate(now));
      this.db
        .prepare('INSERT INTO Session (id, userId, csrfToken, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?)')
        .run(tokenId(token), row.id, csrfToken, sqlDate(now), sqlDate(expires));
    });
    return { token, user: { id: row.id, username: row.username, role: row.role, csrfToken } };
  }

  /** The user behind a session token, or null when missing or expired. */
  lookup(token: string | undefined): SessionUser | null {
    if (!token) return null;
    const row = this.db
      .prepare(
        'SELECT u.id, u.username, u.role, s.csrfToken, s.expiresAt FROM Session s JOIN User u ON u.id = s.userId WHERE s.id = ?',
      )
      .get(tokenId(token)) as { id: number; username: string; role: string; csrfToken: string; expiresAt: string } | undefined;
    if (!row || new Date(row.expiresAt).getTime() < Date.now()) return null;
    return { id: row.id, username: row.username, role: row.role, csrfToken: row.csrfToken };
  }

  logout(token: string | undefined): void {
    if (token) this.db.prepare('DELETE FROM Session WHERE id = ?').run(tokenId(token));
  }

  /**
   * A user changes their own password: false when `current` is not it. Their other sessions end
   * (a password is changed when it may have leaked); the one in `keepToken` goes on.
   */
  async changeOwnPassword(userId: number, current: string, next: string, keepToken: string | undefined): Promise<boolean> {
    const row = this.db.prepare('SELECT passwordHash FROM User WHERE id = ?').get(userId) as { passwordHash: string } | undefined;
    if (!row || !(await verifyPassword(current, row.passwordHash))) return false;
    const hash = await hashPassword(next);
    runInTransaction(this.db, () => {
      this.db.prepare('UPDATE User SET passwordHash = ? WHERE id = ?').run(hash, userId);
      this.db.prepare('DELETE FROM Session WHERE userId = ? AND id <> ?').run(userId, keepToken ? tokenId(keepToken) : '');
    });
    return true;
  }

  /** An admin sets a user's password: every session of that user ends. False for an unknown user. */
  async resetPassword(userId: number, next: string): Promise<boolean> {
    const hash = await hashPassword(next);
    return runInTransaction(this.db, () => {
      const changed = this.db.prepare('UPDATE User SET passwordHash = ? WHERE id = ?').run(hash, userId).changes > 0;
      this.db.prepare('DELETE FROM Session WHERE userId = ?').run(userId);
      return changed;
    });
  }
}

/** Constant-time comparison of the CSRF token sent in the header with the session's. */
export function csrfMatches(sent: string | null | undefined, expected: string): boolean {
  if (!sent) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Reads one cookie from a Cookie header. A value that does not percent-decode (`%`, a cut UTF-8
 * sequence) is no cookie: the request is then unauthenticated, where a thrown URIError hung the
 * export download and made every API route answer 500.
 */
export function readCookie(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      // A later cookie of the same name (another Path) may still be readable.
    }
  }
  return undefined;
}
