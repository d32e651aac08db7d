import robotsParser from 'robots-parser';
import { robotsCrawlDelayMs } from '../politeness';
import { normalizePercentEncoding } from '../url';

/** The parsed robots.txt of one origin, as the crawler asks it. */
export interface RobotsRules {
  isAllowed(url: string): boolean;
  /** Crawl-delay of the group that applies to us, in ms; null when none (or unreadable). */
  crawlDelayMs: number | null;
  sitemaps: string[];
}

/**
 * The product token robots.txt groups are matched on (RFC 9309 §2.2.1): `Tidemark` for
 * `Tidemark/0.1 (+https://…)`, and also for `Mozilla/5.0 (compatible; Tidemark/0.1; …)`.
 */
export function robotsProductToken(userAgent: string): string {
  const compatible = /compatible;\s*([A-Za-z_-]+)/.exec(userAgent);
  const leading = /^\s*([A-Za-z_-]+)/.exec(userAgent);
  return (compatible?.[1] ?? leading?.[1] ?? '*').toLowerCase();
}

/**
 * Parses robots.txt for the origin of `robotsUrl` (the URL first asked for: when robots.txt was
 * reached through redirects, its rules still govern the original origin, RFC 9309 §2.3.1.2).
 */
export function parseRobotsRules(robotsUrl: string, text: string, userAgent: string): RobotsRules {
  // RFC 9309 §2.2.2: an escaped unreserved character (`%7E` for `~`) is compared unescaped, on both
  // sides. robots-parser compares escapes as written, and canonical URLs have them unescaped, so a
  // `Disallow: /%7Ejoe/` never matched `/~joe/…`.
  const robot = robotsParser(robotsUrl, normalizePercentEncoding(text));
  const token = robotsProductToken(userAgent);
  return {
    // undefined means "another origin": never asked, since the cache keys rules by origin.
    isAllowed: (url) => robot.isAllowed(normalizePercentEncoding(url), token) !== false,
    crawlDelayMs: robotsCrawlDelayMs(robot.getCrawlDelay(token)),
    sitemaps: robot.getSitemaps().map((url) => resolvedSitemap(url, robotsUrl)),
  };
}

/**
 * A `Sitemap:` line's URL, resolved against robots.txt's: sitemaps.org asks for a full URL, yet
 * sites write `Sitemap: /sitemap.xml`, and the sitemap they mean is plain. What cannot be resolved
 * stays as written (and is recorded as an invalid URL when queued).
 */
function resolvedSitemap(url: string, robotsUrl: string): string {
  try {
    return new URL(url, robotsUrl).href;
  } catch {
    return url;
  }
}
