/** The reasons a URL robots.txt refused is stored with: it disallows it, or it could not be fetched for good. */
export type RobotsRefusalReason = 'robots-disallowed' | 'robots-unavailable';

/**
 * The crawl-log outcome of a URL robots.txt refused, as the visit pass logs such a page, and why in
 * words: revisits, recrawl refetches and feed polls not made log the same, and the reports of a
 * stored URL (frontier-sql.ts reportedState) name it so.
 */
export const ROBOTS_REFUSAL: Record<RobotsRefusalReason, { outcome: string; why: string }> = {
  'robots-disallowed': { outcome: 'robots', why: 'disallowed by robots.txt' },
  'robots-unavailable': { outcome: 'robots-unavailable', why: 'robots.txt unavailable' },
};

/** Every reason a URL robots.txt refused is stored with. */
export const ROBOTS_REFUSAL_REASONS = Object.keys(ROBOTS_REFUSAL) as RobotsRefusalReason[];
