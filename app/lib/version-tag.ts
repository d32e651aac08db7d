/**
 * Versions of stored documents (ICDs, knowledge bases) as HTTP entity tags, for optimistic
 * concurrency: a GET names the version it shows (`ETag`), a PUT names the version its edit was
 * built on (`If-Match`) and is refused with 412 when the stored one has moved on, so a second
 * editor cannot overwrite the first without being told. Pure: the routes and the cockpit share it.
 *
 * The tag is the version's update time, quoted: `"2026-11-25T08:10:06.845Z"`, the `updatedAt` of
 * the JSON body, so a script can build it from the body as well as read it from the header. Each
 * save moves the time on by at least a millisecond (nextVersion), so no two versions share a tag.
 */

/** The strong entity tag of the version stored at `updatedAt`. */
export function versionTag(updatedAt: Date | string): string {
  return `"${new Date(updatedAt).toISOString()}"`;
}

/** An `If-Match` header: any stored version (`*`), or one of these tags (strong, quoted). */
export type IfMatch = { kind: 'any' } | { kind: 'tags'; tags: readonly string[] };

/**
 * Reads an `If-Match` header; null when there is none (the save is unconditional). A weak tag
 * (`W/"…"`) never matches (If-Match compares strongly, RFC 9110 §13.1.1); a bare token is read as
 * if quoted, for scripts that send the `updatedAt` as it is. A header with no tag at all matches
 * nothing: an empty If-Match is more likely an unset variable than a wish to overwrite.
 */
export function parseIfMatch(header: string | null | undefined): IfMatch | null {
  if (header == null) return null;
  const elements = listElements(header);
  if (elements.includes('*')) return { kind: 'any' };
  const tags = elements.filter((e) => !e.startsWith('W/')).map((e) => (e.startsWith('"') ? e : `"${e}"`));
  return { kind: 'tags', tags };
}

/** Whether a save conditioned on `condition` may replace the version stored at `current` (null: nothing stored). */
export function ifMatchHolds(condition: IfMatch, current: Date | null): boolean {
  if (current === null) return false;
  return condition.kind === 'any' || condition.tags.includes(versionTag(current));
}

/**
 * The update time of the version a save writes over the one stored at `current`: now, or a
 * millisecond after `current` when the clock has not moved on since (two saves within one
 * millisecond, or a clock set back), so every save makes a new tag.
 */
export function nextVersion(current: Date, now: Date): Date {
  return new Date(Math.max(now.getTime(), current.getTime() + 1));
}

/** The elements of an If-Match or If-None-Match list: `*`, tags (`W/` kept; a comma may sit inside quotes), bare tokens. */
function listElements(header: string): string[] {
  return header.match(/W\/"[^"]*"|"[^"]*"|[^,\s]+/g) ?? [];
}

/**
 * Whether a GET carrying `ifNoneMatch` is answered 304 for the representation tagged `etag` (a
 * quoted tag): the header is `*`, or lists a tag equal to it by the weak comparison RFC 9110
 * §13.1.2 asks for (`W/"v"` names `"v"`: a cache may have weakened the tag).
 */
export function isNotModified(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (ifNoneMatch == null) return false;
  return listElements(ifNoneMatch).some((e) => e === '*' || (e.startsWith('W/') ? e.slice(2) : e) === etag);
}
