import { ownCopy } from '../extract/own-copy';
import { DEFAULT_BLACKLIST } from './default-blacklist';
import { caseInsensitiveRegExp } from '../process/case-insensitive-regexp';
import { listedHostName } from '../url/host';

const MAX_REMEMBERED_VERDICTS = 10_000;

/**
 * Spam-link filter. Blacklisted links (host or pattern) are excluded with reason 'spam'; the
 * others get a score in [0, 1] that drops for link-farm smells (hyphen-stuffed host names,
 * endless URLs, affiliate and tracking parameters), so the module also ranks, not only cuts.
 *
 * Blacklist entries: a host name (`ads.example` — also matches its subdomains; in its own script or
 * punycode), or `re:` followed by a regular expression tested against the whole URL.
 */

/** Verdict on one link. */
export interface SpamVerdict {
  blacklisted: boolean;
  /** The entry that matched, for the cockpit's explanation. */
  matched?: string;
  /** 1 = clean, lower = spammier; 0 when blacklisted. */
  score: number;
}

/** A compiled filter. */
export interface SpamFilter {
  /** The verdict on `url`; verdicts are shared between calls, so callers do not change them. */
  check(url: string): SpamVerdict;
}

/** Compiles the default list plus `extra` entries (set `includeDefaults: false` to drop the shipped list). */
export function compileSpamFilter(extra: readonly string[] = [], options: { includeDefaults?: boolean } = {}): SpamFilter {
  const entries = [...(options.includeDefaults === false ? [] : DEFAULT_BLACKLIST), ...extra];
  const hosts = new Map<string, string>();
  const patterns: { re: RegExp; entry: string }[] = [];
  for (const raw of entries) {
    const entry = raw.trim();
    if (!entry) continue;
    if (entry.startsWith('re:')) {
      try {
        patterns.push({ re: caseInsensitiveRegExp(entry.slice(3)), entry });
      } catch {
        // A broken user pattern is ignored rather than stopping the crawl.
      }
    } else {
      // As URLs write their hosts: an entry in its own script (`.онлайн`, `casino-bücher.example`) is its punycode.
      hosts.set(listedHostName(entry.replace(/^\*?\./, '')), entry);
    }
  }
  const verdictOf = (url: string): SpamVerdict => {
    let host = '';
    try {
      host = new URL(url).hostname.toLowerCase();
    } catch {
      return { blacklisted: true, matched: 'unparsable URL', score: 0 };
    }
    // Walk up the labels: a.b.example.com, b.example.com, example.com, com.
    for (let h = host; h; h = h.slice(h.indexOf('.') + 1)) {
      const entry = hosts.get(h);
      if (entry) return { blacklisted: true, matched: entry, score: 0 };
      if (!h.includes('.')) break;
    }
    for (const { re, entry } of patterns) if (re.test(url)) return { blacklisted: true, matched: entry, score: 0 };
    return { blacklisted: false, score: spamminessScore(url, host) };
  };
  // A crawl meets most URLs on many pages (a site's menus, its popular pages): a verdict is
  // remembered rather than parsing the URL and testing the patterns again, ~0.6 µs a link.
  const verdicts = new Map<string, SpamVerdict>();
  return {
    check(url) {
      let v = verdicts.get(url);
      if (v) return v;
      if (verdicts.size >= MAX_REMEMBERED_VERDICTS) verdicts.clear();
      // The key is copied: the URL may be a slice of a page's text, which it would keep alive.
      verdicts.set(ownCopy(url), (v = verdictOf(url)));
      return v;
    },
  };
}

/** 1 minus penalties for link-farm features; never below 0.2 (these are hints, not proof). */
export function spamminessScore(url: string, host: string): number {
  let s = 1;
  if ((host.match(/-/g) ?? []).length >= 3) s -= 0.3;
  if (url.length > 200) s -= 0.2;
  if (/[?&](utm_[a-z]+|ref|aff|affiliate|partner|tracking)=/i.test(url)) s -= 0.2;
  if (/\d{6,}/.test(host)) s -= 0.2;
  return Math.max(0.2, s);
}
