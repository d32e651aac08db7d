/**
 * Dates as feeds and sitemaps write them, read the same on every server. Date.parse takes a date
 * and time written without a zone (`2026-03-29T10:00:00`, `Sun, 29 Mar 2026 10:00:00`: common in
 * sloppy feeds and sitemaps) in the server's own zone, so the same feed gave other publication
 * hours, and the posting-rate model other polls, on a server run with TZ=America/New_York than on
 * one in UTC. Such a date is read in UTC here, as feedparser and sitemap readers do. Pure.
 */

/** A zone at the end: `Z` after a digit, an offset (`+05:30`, `-0500`), or a zone's name (`GMT`, `EST`), not AM/PM. */
const ZONE_AT_END = /(?:(?<=\d)Z|[+-]\d{2}:?\d{2}|(?<![A-Za-z])(?!(?:AM|PM)$)[A-Za-z]{1,5})$/i;
/** ISO dates without a time, which Date.parse already reads in UTC. */
const ISO_DATE_ONLY = /^\d{4}(?:-\d{2}(?:-\d{2})?)?$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/** Epoch ms of `text`, a date written without a zone read in UTC; NaN when it is no date. */
export function parseDateAsUtc(text: string): number {
  const s = text.trim();
  if (ZONE_AT_END.test(s) || ISO_DATE_ONLY.test(s)) return Date.parse(s);
  return Date.parse(ISO_DATE_TIME.test(s) ? `${s.replace(' ', 'T')}Z` : `${s} GMT`);
}
