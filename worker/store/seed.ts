import type Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { generatePassword, hashPassword } from '../auth/password';
import { parseIcd, type Icd } from '../icd/schema';
import { sqlDate } from './sqlite';

export const DEMO_ICD_NAME = 'Demo';

/** The ready-made ICD for the bundled demo site: small, polite but quick. */
export function demoIcd(demoOrigin: string): Icd {
  return parseIcd({
    name: DEMO_ICD_NAME,
    description: 'Crawls the demo site bundled with Tidemark (served on loopback), so a first crawl works offline.',
    seeds: [`${demoOrigin}/`],
    scope: { maxPages: 500, maxDepth: 10 },
    politeness: { minDelayMs: 50, maxDelayMs: 1000, delayFactor: 1, concurrency: 4 },
    focus: { keywords: [{ term: 'tide', weight: 1 }, { term: 'harbour', weight: 0.5 }] },
  });
}

/**
 * The stored Demo ICD (`definition`, JSON) with its seeds moved to the demo site's origin, when the
 * site now listens on another port (TIDEMARK_DEMO_PORT changed): every occurrence of the one loopback
 * origin all its seeds share is replaced, patterns included. Nothing else of it changes, so an
 * archivist's edits to the Demo ICD survive a restart; a Demo ICD whose seeds are elsewhere, or
 * already at `demoOrigin`, comes back as it was.
 */
export function demoMovedTo(definition: string, demoOrigin: string): string {
  let seeds: unknown;
  try {
    seeds = (JSON.parse(definition) as { seeds?: unknown }).seeds;
  } catch {
    return definition;
  }
  if (!Array.isArray(seeds) || seeds.length === 0) return definition;
  const origins = new Set(seeds.map((seed) => (typeof seed === 'string' ? LOOPBACK_ORIGIN.exec(seed)?.[0] : undefined)));
  const [origin] = origins;
  if (origins.size !== 1 || origin === undefined || origin === demoOrigin) return definition;
  // As written in the JSON, not followed by another digit of a longer port.
  const written = new RegExp(origin.replace(/[.]/g, '\\.') + '(?!\\d)', 'g');
  return definition.replace(written, () => demoOrigin);
}

/** The origin of a URL on the demo site's interface (127.0.0.1, any port). */
const LOOPBACK_ORIGIN = /^http:\/\/127\.0\.0\.1:\d+(?=\/|$)/;

export interface SeedResult {
  /** Set when the first admin was created without TIDEMARK_ADMIN_PASSWORD: print it once. */
  oneTimePassword?: string;
  createdAdmin: boolean;
}

/** The first admin's password and its hash, made before the cockpit answers (see firstAdmin). */
export interface FirstAdmin {
  passwordHash: string;
  /** The password when it was made up here (no TIDEMARK_ADMIN_PASSWORD): to be printed once. */
  oneTimePassword?: string;
}

/**
 * The first admin's account, hashed ahead of seedDatabase when the database has no user yet (null
 * otherwise). Hashing takes ~0.5 s; done after the cockpit began to listen, it let the cockpit
 * answer meanwhile with no user, no Demo ICD and no knowledge base (a login refused as a wrong
 * password, empty lists). Made first, the seeding that follows is synchronous.
 */
export async function firstAdmin(db: Database.Database, adminPassword?: string): Promise<FirstAdmin | null> {
  if (userCount(db) > 0) return null;
  const password = adminPassword ?? generatePassword();
  return { passwordHash: await hashPassword(password), ...(adminPassword ? {} : { oneTimePassword: password }) };
}

const userCount = (db: Database.Database) => (db.prepare('SELECT COUNT(*) AS n FROM User').get() as { n: number }).n;

/**
 * Fills a fresh database: the first admin user (`admin`, from firstAdmin), the Demo ICD (kept
 * pointing at the demo site's current origin, see demoMovedTo; otherwise as the archivists left it)
 * and the shipped knowledge base. Synchronous, so that nothing is answered in between once the
 * cockpit listens. Idempotent: a second start with the same demo origin writes nothing.
 */
export function seedDatabase(
  db: Database.Database,
  opts: { admin: FirstAdmin | null; demoOrigin?: string; knowledgeBasePath?: string },
): SeedResult {
  const result: SeedResult = { createdAdmin: false };
  const now = sqlDate(new Date());
  if (opts.admin && userCount(db) === 0) {
    db.prepare('INSERT INTO User (username, passwordHash, role, createdAt) VALUES (?, ?, ?, ?)').run('admin', opts.admin.passwordHash, 'admin', now);
    result.createdAdmin = true;
    result.oneTimePassword = opts.admin.oneTimePassword;
  }
  if (opts.demoOrigin) {
    const existing = db.prepare('SELECT id, definition FROM Icd WHERE name = ?').get(DEMO_ICD_NAME) as { id: number; definition: string } | undefined;
    if (!existing) {
      const definition = JSON.stringify(demoIcd(opts.demoOrigin));
      db.prepare('INSERT INTO Icd (name, definition, ownerId, createdAt, updatedAt) VALUES (?, ?, NULL, ?, ?)').run(DEMO_ICD_NAME, definition, now, now);
    } else {
      const moved = demoMovedTo(existing.definition, opts.demoOrigin);
      if (moved !== existing.definition) db.prepare('UPDATE Icd SET definition = ?, updatedAt = ? WHERE id = ?').run(moved, now, existing.id);
    }
  }
  if (opts.knowledgeBasePath && existsSync(opts.knowledgeBasePath)) {
    const has = db.prepare('SELECT id FROM KnowledgeBase WHERE name = ?').get('default');
    if (!has) db.prepare('INSERT INTO KnowledgeBase (name, xml, updatedAt) VALUES (?, ?, ?)').run('default', readFileSync(opts.knowledgeBasePath, 'utf8'), now);
  }
  return result;
}
