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

export interface SeedResult {
  /** Set when the first admin was created without TIDEMARK_ADMIN_PASSWORD: print it once. */
  oneTimePassword?: string;
  createdAdmin: boolean;
}

/**
 * Fills a fresh database: the first admin user, the Demo ICD (kept pointing at the demo site's
 * current origin) and the shipped knowledge base. Idempotent.
 */
export async function seedDatabase(
  db: Database.Database,
  opts: { adminPassword?: string; demoOrigin?: string; knowledgeBasePath?: string },
): Promise<SeedResult> {
  const result: SeedResult = { createdAdmin: false };
  const now = sqlDate(new Date());
  const users = (db.prepare('SELECT COUNT(*) AS n FROM User').get() as { n: number }).n;
  if (users === 0) {
    const password = opts.adminPassword ?? generatePassword();
    db.prepare('INSERT INTO User (username, passwordHash, role, createdAt) VALUES (?, ?, ?, ?)').run('admin', await hashPassword(password), 'admin', now);
    result.createdAdmin = true;
    if (!opts.adminPassword) result.oneTimePassword = password;
  }
  if (opts.demoOrigin) {
    const definition = JSON.stringify(demoIcd(opts.demoOrigin));
    const existing = db.prepare('SELECT id FROM Icd WHERE name = ?').get(DEMO_ICD_NAME) as { id: number } | undefined;
    if (existing) db.prepare('UPDATE Icd SET definition = ?, updatedAt = ? WHERE id = ?').run(definition, now, existing.id);
    else db.prepare('INSERT INTO Icd (name, definition, ownerId, createdAt, updatedAt) VALUES (?, ?, NULL, ?, ?)').run(DEMO_ICD_NAME, definition, now, now);
  }
  if (opts.knowledgeBasePath && existsSync(opts.knowledgeBasePath)) {
    const has = db.prepare('SELECT id FROM KnowledgeBase WHERE name = ?').get('default');
    if (!has) db.prepare('INSERT INTO KnowledgeBase (name, xml, updatedAt) VALUES (?, ?, ?)').run('default', readFileSync(opts.knowledgeBasePath, 'utf8'), now);
  }
  return result;
}
