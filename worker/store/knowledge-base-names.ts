/**
 * Renaming and deleting a knowledge base stored in the cockpit. ICDs name the knowledge base
 * their crawls use (`aah.knowledgeBase` in the ICD's JSON), and each crawl keeps the name of the
 * one it copied (`Crawl.knowledgeBaseName`, beside its copy of the XML). A rename carries those
 * names along, so an ICD goes on naming the knowledge base it named; a delete is refused while
 * an ICD names it or a crawl that may still run copied it. The knowledge base named `default` is
 * neither renamed nor deleted: ICDs name it unless told otherwise, and the server stores the
 * shipped file under that name again at every start when none has it.
 *
 * Each check and its writes are one immediate write transaction on the driver, as the crawl
 * requests are (../process/crawl-requests.ts): an ICD saved meanwhile cannot slip between them.
 */
import type Database from 'better-sqlite3';
import { onRowInWriteTransaction, sqlDate } from './sqlite';

/** The knowledge base ICDs name unless they name another (worker/icd/schema.ts), seeded from the shipped file. */
export const DEFAULT_KNOWLEDGE_BASE = 'default';

/** Crawl statuses of a crawl that may run again (created, running, paused, stopping); the others have ended. */
const LIVE_CRAWL_STATUSES = ['created', 'running', 'paused', 'stopping'] as const;
const marks = LIVE_CRAWL_STATUSES.map(() => '?').join(', ');

/**
 * What a request came to: done (with its result), refused (409, why; `at`: the field the refusal is
 * about, a new name that is taken), or no such knowledge base (404).
 */
export type KnowledgeBaseOutcome<T> = { done: T } | { refused: string; at?: 'name' } | 'missing';

/** An ICD or crawl that refers to a knowledge base, as a refusal names it. */
export interface KnowledgeBaseUser {
  id: number;
  name: string;
}

/**
 * The knowledge base an ICD's stored JSON names: its `aah.knowledgeBase`, `default` when it has
 * none (the schema's default), null when the JSON is unreadable (it names nothing we can tell).
 */
export function knowledgeBaseNamedBy(definition: string): string | null {
  let icd: unknown;
  try {
    icd = JSON.parse(definition);
  } catch {
    return null;
  }
  if (typeof icd !== 'object' || icd === null) return null;
  const named = (icd as { aah?: { knowledgeBase?: unknown } }).aah?.knowledgeBase;
  return named === undefined ? DEFAULT_KNOWLEDGE_BASE : typeof named === 'string' ? named : null;
}

/** An ICD's stored JSON naming `to` as its knowledge base instead; everything else as it was. */
export function withKnowledgeBaseNamed(definition: string, to: string): string {
  const icd = JSON.parse(definition) as { aah?: Record<string, unknown> };
  return JSON.stringify({ ...icd, aah: { ...icd.aah, knowledgeBase: to } });
}

/** Up to five users, each by name and #id: “Night crawl” (#9), …. */
const named = (users: readonly KnowledgeBaseUser[]): string =>
  `${users.slice(0, 5).map((u) => `“${u.name}” (#${u.id})`).join(', ')}${users.length > 5 ? `, and ${users.length - 5} more` : ''}`;

/**
 * Why knowledge base `name` may not be deleted, or null when it may: it is the default one, ICDs
 * name it, or crawls that may still run (created, running, paused) copied it. One sentence says
 * who uses it, the next what to do: "in use by 1 crawl definition: “X” (#7) that may still run"
 * read as if the definition ran.
 */
export function deleteRefusal(name: string, icds: readonly KnowledgeBaseUser[], crawls: readonly KnowledgeBaseUser[]): string | null {
  if (name === DEFAULT_KNOWLEDGE_BASE) return `“${DEFAULT_KNOWLEDGE_BASE}” is the knowledge base crawl definitions use unless they name another, and the server restores it at every start: it cannot be deleted (edit it instead)`;
  if (!icds.length && !crawls.length) return null;
  const uses: string[] = [];
  const steps: string[] = [];
  if (icds.length === 1) uses.push(`the crawl definition ${named(icds)} names it`);
  else if (icds.length) uses.push(`${icds.length} crawl definitions name it: ${named(icds)}`);
  if (crawls.length === 1) uses.push(`the crawl ${named(crawls)}, which may still run, uses it`);
  else if (crawls.length) uses.push(`${crawls.length} crawls that may still run use it: ${named(crawls)}`);
  if (icds.length) steps.push(`choose another knowledge base in ${icds.length === 1 ? 'that crawl definition' : 'those crawl definitions'}`);
  if (crawls.length) steps.push(`let ${crawls.length === 1 ? 'that crawl' : 'those crawls'} end`);
  return `Knowledge base “${name}” is in use, so it was not deleted: ${uses.join('; and ')}. To delete it, first ${steps.join(' and ')}`;
}

/** Why knowledge base `from` may not be renamed `to` (`toTaken`: a knowledge base has that name), or null. */
export function renameRefusal(from: string, to: string, toTaken: boolean): string | null {
  if (from === DEFAULT_KNOWLEDGE_BASE) return `“${DEFAULT_KNOWLEDGE_BASE}” is the knowledge base crawl definitions use unless they name another, and the server restores it at every start: it cannot be renamed (save a copy under another name instead)`;
  if (toTaken) return `A knowledge base named “${to}” already exists: choose another name`;
  return null;
}

type Row = { id: number; name: string; updatedAt: string };

function inWriteTransaction<T>(db: Database.Database, name: string, body: (kb: Row) => KnowledgeBaseOutcome<T>): KnowledgeBaseOutcome<T> {
  return onRowInWriteTransaction(db, () => db.prepare('SELECT id, name, updatedAt FROM KnowledgeBase WHERE name = ?').get(name) as Row | undefined, body);
}

/** The ICDs whose JSON names knowledge base `name`, with their JSON. */
function icdsNaming(db: Database.Database, name: string): (KnowledgeBaseUser & { definition: string; updatedAt: string })[] {
  const icds = db.prepare('SELECT id, name, definition, updatedAt FROM Icd ORDER BY id').all() as (KnowledgeBaseUser & { definition: string; updatedAt: string })[];
  return icds.filter((icd) => knowledgeBaseNamedBy(icd.definition) === name);
}

/**
 * Renames knowledge base `from` to `to`, and the ICDs and the crawls that may still run naming it with it (each ICD
 * changed gets a new version, so an editor that had it open is told before saving the old name
 * back). The knowledge base keeps its version: its content is the same. `{done: icds changed}`.
 */
export function renameKnowledgeBase(db: Database.Database, from: string, to: string, now: Date = new Date()): KnowledgeBaseOutcome<{ updatedAt: Date; icds: number }> {
  return inWriteTransaction<{ updatedAt: Date; icds: number }>(db, from, (kb) => {
    if (from === to) return { done: { updatedAt: new Date(kb.updatedAt), icds: 0 } };
    const taken = db.prepare('SELECT 1 FROM KnowledgeBase WHERE name = ?').get(to) !== undefined;
    const refusal = renameRefusal(from, to, taken);
    if (refusal) return taken ? { refused: refusal, at: 'name' } : { refused: refusal };
    db.prepare('UPDATE KnowledgeBase SET name = ? WHERE id = ?').run(to, kb.id);
    const icds = icdsNaming(db, from);
    const writeIcd = db.prepare('UPDATE Icd SET definition = ?, updatedAt = ? WHERE id = ?');
    for (const icd of icds) {
      // A new version even within the millisecond of the last save (see nextVersion in app/lib/version-tag.ts).
      const next = new Date(Math.max(now.getTime(), new Date(icd.updatedAt).getTime() + 1));
      writeIcd.run(withKnowledgeBaseNamed(icd.definition, to), sqlDate(next), icd.id);
    }
    // Crawls that may still run follow it (a delete looks for them by name); an ended crawl's record
    // keeps the name it ran with.
    const marks = LIVE_CRAWL_STATUSES.map(() => '?').join(', ');
    db.prepare(`UPDATE Crawl SET knowledgeBaseName = ? WHERE knowledgeBaseName = ? AND status IN (${marks})`).run(to, from, ...LIVE_CRAWL_STATUSES);
    return { done: { updatedAt: new Date(kb.updatedAt), icds: icds.length } };
  });
}

/** Deletes knowledge base `name` unless deleteRefusal refuses it. */
export function deleteKnowledgeBase(db: Database.Database, name: string): KnowledgeBaseOutcome<true> {
  return inWriteTransaction<true>(db, name, (kb) => {
    const crawls = db.prepare(`SELECT id, name FROM Crawl WHERE knowledgeBaseName = ? AND status IN (${marks}) ORDER BY id`).all(name, ...LIVE_CRAWL_STATUSES) as KnowledgeBaseUser[];
    const refusal = deleteRefusal(name, icdsNaming(db, name), crawls);
    if (refusal) return { refused: refusal };
    db.prepare('DELETE FROM KnowledgeBase WHERE id = ?').run(kb.id);
    return { done: true };
  });
}
