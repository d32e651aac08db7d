'use client';
import { useState } from 'react';
import { versionTag } from '../version-tag';
import { ApiError } from './api';

/**
 * Saves of a whole document (an ICD, a knowledge base) that say which stored version they were
 * built on, and what the editors do when another save got there first: the server refuses such a
 * save with 412 (see ../version-tag.ts), and the page keeps what was typed and offers a way on.
 */

/**
 * The stored version a page's edits build on, which its saves send: the one it loaded, then each
 * one it saved. Not the query cache's: a refetch can bring someone else's version into the cache
 * while the page still holds edits of the older one, and saving those on the newer version would
 * overwrite the other's changes unseen.
 */
export interface EditBasis {
  /** updatedAt of the version the edits build on (null: a document not stored yet). */
  basedOn: string | null;
  /** Called with the version each save of the page stored. */
  saved(updatedAt: string): void;
  /** Loads the stored version and drops the page's edits ("Reload theirs"). */
  reload(): void;
  reloading: boolean;
}

/** A save refused because the document was saved elsewhere since the page loaded it. */
export interface EditConflict {
  /** When the version now stored was saved (ISO 8601). */
  updatedAt: string;
}

/** The request headers of a save built on the version saved at `basedOn` (none: a new document, saved unconditionally). */
export function ifMatchHeaders(basedOn: string | null): Record<string, string> {
  return basedOn === null ? {} : { 'if-match': versionTag(basedOn) };
}

/** The conflict an error reports (a 412 naming the stored version), or null for any other error. */
export function editConflictOf(error: unknown): EditConflict | null {
  if (!(error instanceof ApiError) || error.status !== 412) return null;
  const updatedAt = (error.body as { updatedAt?: unknown } | null)?.updatedAt;
  return typeof updatedAt === 'string' && !Number.isNaN(Date.parse(updatedAt)) ? { updatedAt } : null;
}

/**
 * The stored document an editor starts from after "Reload theirs": the reload's answer until the
 * page's query has it too. TanStack tells a query's components of new data a task after the
 * reload's own callback has run, so a form remounted at once from the query would start from the
 * version it replaces, and a save from there (built on the new version) overwrite theirs unseen.
 */
export function newestStored<T>(fromQuery: { value: T; updatedAt: string | null }, reloaded: { value: T; updatedAt: string } | null): T {
  return reloaded && (fromQuery.updatedAt === null || fromQuery.updatedAt < reloaded.updatedAt) ? reloaded.value : fromQuery.value;
}

/** Reads a query again for "Reload theirs": its new data, or its error thrown (a failed refetch keeps the old data). */
export async function readAgain<T>(refetch: () => Promise<{ data?: T; error: unknown }>): Promise<T> {
  const fresh = await refetch();
  if (fresh.error) throw fresh.error;
  return fresh.data!;
}

/**
 * The conflict an editor last ran into, with `extra` about the save that was refused (to send it
 * again). It is shown while the page's edits still build on `basedOn`, the version they built on
 * then: once the page saves or reloads, the version moves on and the notice goes by itself.
 */
export function useEditConflict<E extends object = object>(basedOn: string | null) {
  const [conflict, setConflict] = useState<(EditConflict & E & { basedOn: string | null }) | null>(null);
  return {
    shown: conflict && conflict.basedOn === basedOn ? conflict : null,
    /** Records `error` if it is a conflict; false when it is another error. */
    caught(error: unknown, extra: E): boolean {
      const found = editConflictOf(error);
      if (found) setConflict({ ...extra, ...found, basedOn });
      return found !== null;
    },
  };
}
