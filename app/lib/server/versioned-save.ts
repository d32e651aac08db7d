import type { Icd } from '../../../worker/icd/schema';
import type { PrismaClient } from '../../../worker/store/prisma';
import { ifMatchHolds, nextVersion, versionTag, type IfMatch } from '../version-tag';
import { jsonError } from './handler';

/**
 * Saves of whole documents (an ICD, a knowledge base) that refuse to overwrite a version the
 * sender has not seen: optimistic concurrency through `If-Match` (see ../version-tag.ts). Before,
 * the second of two editors silently replaced the first one's work.
 */

/** What a save came to: stored as `version`, refused because `current` is not the version it was built on, or no such row. */
export type SaveOutcome = { kind: 'saved'; version: Date } | { kind: 'conflict'; current: Date } | { kind: 'missing' };

/** One stored row, as a save sees it. */
export interface VersionedRow {
  /** The stored version (the row's updatedAt), null when there is no row. */
  version(): Promise<Date | null>;
  /**
   * Writes the new content as version `next`, only while the stored version is still `current`
   * (null: whatever it is); false when it is not, or the row is gone. One UPDATE … WHERE
   * updatedAt = current, so of two saves built on the same version only one can succeed.
   */
  write(next: Date, current: Date | null): Promise<boolean>;
}

/** Tries of the check and the write before giving up on a row that other saves keep changing. */
const ATTEMPTS = 3;

/**
 * Writes `row` when `ifMatch` holds for its stored version (always, without `ifMatch`). Each try
 * reads the version and writes only if it is still that one; another save in between sends it
 * round again. Without `ifMatch` a save that lost every try is written over whatever is stored
 * (as all saves were before): a script that asked for no check is never refused.
 */
export async function saveVersioned(row: VersionedRow, ifMatch: IfMatch | null, now: () => Date = () => new Date()): Promise<SaveOutcome> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await row.version();
    if (current === null) return { kind: 'missing' };
    if (ifMatch && !ifMatchHolds(ifMatch, current)) return { kind: 'conflict', current };
    const next = nextVersion(current, now());
    if (await row.write(next, current)) return { kind: 'saved', version: next };
  }
  const current = await row.version();
  if (current === null) return { kind: 'missing' };
  if (ifMatch) return { kind: 'conflict', current };
  const next = nextVersion(current, now());
  return (await row.write(next, null)) ? { kind: 'saved', version: next } : { kind: 'missing' };
}

/** Stores `icd` as ICD `id` under `ifMatch` (a crawl keeps the copy it started with). */
export function saveIcd(prisma: PrismaClient, id: number, icd: Icd, ifMatch: IfMatch | null): Promise<SaveOutcome> {
  const data = { name: icd.name, definition: JSON.stringify(icd) };
  return saveVersioned(
    {
      version: async () => (await prisma.icd.findUnique({ where: { id }, select: { updatedAt: true } }))?.updatedAt ?? null,
      write: async (next, current) =>
        (await prisma.icd.updateMany({ where: { id, ...(current ? { updatedAt: current } : {}) }, data: { ...data, updatedAt: next } })).count === 1,
    },
    ifMatch,
  );
}

/**
 * Stores `xml` as knowledge base `name` under `ifMatch`. Without `ifMatch` a name not stored yet
 * is created (a PUT has always done so); with it, there is no version it could match.
 */
export async function saveKnowledgeBase(prisma: PrismaClient, name: string, xml: string, ifMatch: IfMatch | null): Promise<SaveOutcome> {
  const outcome = await saveVersioned(
    {
      version: async () => (await prisma.knowledgeBase.findUnique({ where: { name }, select: { updatedAt: true } }))?.updatedAt ?? null,
      write: async (next, current) =>
        (await prisma.knowledgeBase.updateMany({ where: { name, ...(current ? { updatedAt: current } : {}) }, data: { xml, updatedAt: next } })).count === 1,
    },
    ifMatch,
  );
  if (outcome.kind !== 'missing' || ifMatch) return outcome;
  // upsert: two first saves of one name at once both find none.
  const row = await prisma.knowledgeBase.upsert({ where: { name }, create: { name, xml }, update: { xml } });
  return { kind: 'saved', version: row.updatedAt };
}

/**
 * The 412 of a save built on a version no longer stored: nothing was saved. The body says when the
 * stored version was made and carries its tag, so the sender can look at it and, if it still
 * wants to, overwrite it knowingly (a save with `If-Match` of that tag).
 */
export function conflictResponse(what: string, current: Date): Response {
  const tag = versionTag(current);
  const at = current.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  const error =
    `This ${what} was changed at ${at} since you opened it, so your save would have overwritten those changes: nothing was saved. ` +
    `Load it again to see them, or save again with If-Match: ${tag} to overwrite them.`;
  const res = jsonError(412, { error, updatedAt: current.toISOString(), etag: tag });
  res.headers.set('etag', tag);
  return res;
}

/** A JSON answer about the version stored at `updatedAt`: its tag in `ETag`, never cached. */
export function versionedJson(body: unknown, updatedAt: Date, status = 200): Response {
  return Response.json(body, { status, headers: { 'cache-control': 'no-store', etag: versionTag(updatedAt) } });
}
