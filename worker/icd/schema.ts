import { z } from 'zod';
import { patternProblem, type PatternUse } from '../process/regexp-safety';

/**
 * The Intelligent Crawl Definition: the one schema that validates the cockpit form, the API and
 * the CLI. Every field has a default so `{ name, seeds }` is a complete ICD.
 */

/**
 * Most items each list of an ICD may hold. Every crawl stores its own copy of the ICD and the
 * worker compiles it whole, so an unbounded list (a 19 MB ICD of 500,000 seeds was accepted) is
 * paid again by each crawl. Each bound is far above what an archivist types or a benchmark sends
 * (the politeness benchmark's 200 seeds); patterns are fewer because every URL is tested against
 * each one.
 */
export const ICD_LIMITS = {
  seeds: 10_000,
  hosts: 10_000,
  patterns: 200,
  keywords: 1_000,
  entities: 1_000,
  aliases: 100,
  topics: 1_000,
  blacklist: 10_000,
  topicTerms: 5_000,
  feeds: 1_000,
} as const;

/** An array of at most `max` items, refused with a message that names them. */
const list = <T extends z.ZodType>(item: T, max: number, what: string) => z.array(item).max(max, `At most ${max.toLocaleString('en-US')} ${what}`);

const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
};

/**
 * An HTTP field value (RFC 9110 §5.5): visible ASCII and Latin-1's printable characters (its obs-text
 * without the C1 controls), spaces and tabs. undici refuses a control character or one past U+00FF.
 */
const HTTP_FIELD_VALUE = /^[\t\x20-\x7e\xa0-\xff]*$/;

const httpUrl = z
  .string()
  .trim()
  .min(1, 'Enter a URL')
  .refine(isHttpUrl, {
    // `example.org/news`, as an address bar shows it, lacks only its scheme: say what a URL starts with.
    error: (issue) => (String(issue.input).includes('://') ? 'Not a valid http(s) URL' : 'Not a valid http(s) URL: a URL starts with https:// or http://'),
  });

/**
 * A pattern as `use` compiles it, checked by the rule every user pattern follows (regexp-safety.ts):
 * it compiles and runs, and cannot backtrack for long. Every link of a crawl and every URL posted to
 * the cockpit is matched against these, on the crawl's or the server's thread: `(a+)+$` took 19 s
 * on a 40-character URL, `(.*)(.*)(.*)\1#` 68 s on a 600-character one, each holding the cockpit.
 */
const patternSource = (use: PatternUse = {}) =>
  z.string().refine((value) => patternProblem(value, use) === null, { error: (issue) => patternProblem(String(issue.input), use) ?? undefined });

/** A scope or live exclude pattern, compiled as written (`new RegExp(source)`, compileScope). */
export const regexSource = patternSource();

/**
 * A scope pattern: matched against canonical URLs, which hold no whitespace, so a space at either
 * end never matches. The cockpit's form trims its lines; a file with `"search\\?q= "` ran so in the
 * CLI and was saved trimmed, matching, by the form. Both now refuse it, saying why.
 */
const scopePattern = regexSource.refine((value) => value.trim() === value, {
  error: 'A pattern with a space at its start or end never matches: URLs hold no spaces. Remove the space',
});

/**
 * A spam-list entry (worker/analyze/spam-filter.ts): a host name, or `re:` and a pattern tested
 * against the whole URL, case-insensitively.
 */
const blacklistEntry = z
  .string()
  .trim()
  .min(1)
  .refine((entry) => !entry.startsWith('re:') || patternProblem(entry.slice(3), { caseInsensitive: true }) === null, {
    error: (issue) => `${patternProblem(String(issue.input).trim().slice(3), { caseInsensitive: true })} (the pattern after re:)`,
  });

export const scopeSchema = z.object({
  /** Hosts allowed besides the seeds' own hosts (exact host names, lower case). */
  allowedHosts: list(z.string().trim().toLowerCase().min(1), ICD_LIMITS.hosts, 'allowed hosts').default([]),
  /** SURT prefixes, e.g. `http://(org,example,)/blog` — a URL in any of them is in scope. */
  surtPrefixes: list(z.string().trim().min(1), ICD_LIMITS.hosts, 'SURT prefixes').default([]),
  include: list(scopePattern, ICD_LIMITS.patterns, 'include patterns').default([]),
  exclude: list(scopePattern, ICD_LIMITS.patterns, 'exclude patterns').default([]),
  maxDepth: z.number().int().min(0).max(1000).default(20),
  maxPages: z.number().int().min(1).max(100_000_000).default(10_000),
  maxPagesPerHost: z.number().int().min(1).max(100_000_000).default(10_000),
  maxUrlLength: z.number().int().min(32).max(65_536).default(2048),
  /** How query strings are canonicalised: kept as is, parameters sorted, or dropped. */
  queryHandling: z.enum(['keep', 'sort', 'strip']).default('keep'),
  /** Query variants of one path allowed per host before the path counts as a trap. */
  maxQueryVariantsPerPath: z.number().int().min(1).max(1_000_000).default(200),
  /** Distinct dates of one calendar-like URL template per host before further ones are traps. */
  maxCalendarDates: z.number().int().min(1).max(100_000).default(400),
  /**
   * Links of one page the crawl follows, in document order (Heritrix's max-outlinks is the same
   * 6,000): a link farm's page can hold hundreds of thousands, each a frontier row. The rest are
   * counted in the page's crawl-log entry; the archived page itself keeps them all.
   */
  maxOutLinksPerPage: z.number().int().min(1).max(1_000_000).default(6000),
  /** Capture page requisites (images, CSS, scripts) even when outside the host scope. */
  includeRequisites: z.boolean().default(true),
  /**
   * Fetch `/favicon.ico` once per origin of a captured HTML page (an HTML error page too: a browser
   * renders it), as its requisite, as a browser (and so Browsertrix) asks for it on every site and a
   * replay asks for it too.
   */
  includeFavicon: z.boolean().default(true),
  /**
   * Browsertrix's extra hops, Heritrix's transitive hops: a URL outside the host scope or the
   * include patterns is captured when an in-scope page reaches it through at most this many
   * consecutive out-of-scope links, the redirects completing each not counted; the count starts
   * again inside the scope (worker/url/scope.ts). 0–3.
   */
  extraHops: z.number().int().min(0).max(3).default(0),
  /**
   * A GET form is queued as the URL a browser submits with its controls' default values (off, the
   * default: its action as written, as Heritrix takes it; Browsertrix submits none): each page's
   * sort form and site search are fetched once per page, so it is the archivist's choice.
   */
  submitGetForms: z.boolean().default(false),
  /**
   * Fetch from loopback, private-network, link-local, unspecified and carrier-grade NAT addresses
   * whatever the seeds are (worker/fetch/address-class.ts). Off, a URL whose host resolves to one
   * is refused (`private-address`), unless a seed's host resolves to an address of the same kind;
   * link-local (cloud metadata services) only with this on.
   */
  allowPrivateAddresses: z.boolean().default(false),
  /**
   * Heritrix's max-time, Browsertrix's crawl time limit: after this many minutes of running (a
   * paused crawl's pauses not counted) the crawl visits no more URLs and finishes; 0: no limit.
   */
  maxDurationMinutes: z.number().int().min(0).max(525_600).default(0),
  /**
   * Heritrix's max-bytes-download, Browsertrix's crawl size limit: once the captures' payloads add
   * up to this many bytes the crawl visits no more URLs and finishes; 0: no limit.
   */
  maxBytes: z.number().int().min(0).max(100 * 1024 ** 4).default(0),
});

/** The longest politeness delay an ICD may set (maxDelayMs caps robots.txt's Crawl-delay too): a key's last request older than this constrains no request. */
export const MAX_POLITENESS_DELAY_MS = 3_600_000;

export const politenessSchema = z
  .object({
    /** Off: no per-host delay and no one-request-per-host limit (benchmarks against own servers). */
    enabled: z.boolean().default(true),
    respectRobots: z.boolean().default(true),
    /** Seeds (URL prefixes) whose hosts are crawled without honouring robots.txt. */
    ignoreRobotsFor: list(z.string(), ICD_LIMITS.seeds, 'prefixes that ignore robots.txt').default([]),
    minDelayMs: z.number().int().min(0).max(600_000).default(1000),
    maxDelayMs: z.number().int().min(0).max(MAX_POLITENESS_DELAY_MS).default(30_000),
    /** Next request to a host waits delayFactor × the last response time (Heritrix's delay-factor). */
    delayFactor: z.number().min(0).max(100).default(2),
    concurrency: z.number().int().min(1).max(512).default(16),
  })
  .refine((p) => p.maxDelayMs >= p.minDelayMs, {
    message: 'Max delay must be at least the min delay',
    path: ['maxDelayMs'],
    // Checked even when another politeness field is invalid (zod skips refinements then), so the
    // form shows every fault at once; only when both delays are valid numbers.
    when: (payload) => {
      const value = payload.value as { minDelayMs?: unknown; maxDelayMs?: unknown } | null;
      return typeof value?.minDelayMs === 'number' && typeof value.maxDelayMs === 'number' &&
        !payload.issues.some((i) => i.path?.[0] === 'minDelayMs' || i.path?.[0] === 'maxDelayMs');
    },
  });

export const fetchLimitsSchema = z.object({
  connectTimeoutMs: z.number().int().min(100).max(600_000).default(10_000),
  headersTimeoutMs: z.number().int().min(100).max(600_000).default(20_000),
  totalTimeoutMs: z.number().int().min(100).max(3_600_000).default(120_000),
  maxBodyBytes: z.number().int().min(1024).max(10 * 1024 ** 3).default(50 * 1024 * 1024),
  /** Cap on decompressed bytes when a body must be decoded (link extraction); stops gzip bombs. */
  maxDecodedBytes: z.number().int().min(1024).max(10 * 1024 ** 3).default(100 * 1024 * 1024),
  maxRetries: z.number().int().min(0).max(10).default(2),
  /**
   * A host whose URLs end this many times in a row with no answer at all (no connection, a timeout
   * before a byte, a name that does not resolve; after each URL's retries) goes into back-off: none
   * of its URLs is requested for hostBackoffMs, then one is tried, the wait doubling up to 30 minutes
   * while none answers (politeness/host-outage.ts). 0: never.
   */
  hostFailuresBeforeBackoff: z.number().int().min(0, 'At least 0 (0: no back-off)').max(1000, 'At most 1,000 URLs in a row').default(3),
  hostBackoffMs: z.number().int().min(100, 'At least 100 ms').max(1_800_000, 'At most 30 minutes (1,800,000 ms), the longest wait between tries').default(60_000),
  /** How long a host in back-off may stay without an answer before its waiting URLs fail as `host-unreachable`; 0: never given up. */
  hostGiveUpMs: z.number().int().min(0, 'At least 0 (0: never given up)').max(604_800_000, 'At most a week (604,800,000 ms)').default(7_200_000),
  /**
   * HTTPS certificates are checked (an expired or self-signed one fails the fetch as `tls`); false
   * archives such sites anyway, as Heritrix's default trust level and Browsertrix do.
   */
  verifyCertificates: z.boolean().default(true),
});

export const keywordSchema = z.object({ term: z.string().trim().min(1), weight: z.number().min(0).max(10).default(1) });
export const entitySchema = z.object({
  name: z.string().trim().min(1),
  type: z.enum(['person', 'organisation', 'location', 'event']),
  aliases: list(z.string().trim().min(1), ICD_LIMITS.aliases, 'aliases per entity').default([]),
});
/** A focus URL pattern, matched case-insensitively (worker/analyze/url-pattern-module.ts). */
export const urlPatternSchema = z.object({ pattern: patternSource({ caseInsensitive: true }), weight: z.number().min(-1).max(1) });

/**
 * Largest module weight. A page's priority is the weighted average of the module scores
 * (worker/analyze/aggregate.ts): the five weights are summed, and two of 1e308 overflowed the sum
 * to Infinity, making the priority NaN (or 0). Only the weights' ratios matter, and 1,000 to 1 is
 * finer than anyone tunes them; five of 1,000 sum to 5,000.
 */
export const MAX_MODULE_WEIGHT = 1_000;
const moduleWeight = z.number().min(0).max(MAX_MODULE_WEIGHT, `At most ${MAX_MODULE_WEIGHT.toLocaleString('en-US')}: the weights count only relative to each other`);

/**
 * Largest weight of a reviewed topic term. The topic vector's norm sums the squares of up to
 * ICD_LIMITS.topicTerms weights: one of 1e155 made it Infinity, and every page's cosine with the
 * topic 0 or NaN. A reference crawl proposes weights of about 1, plus the keywords' (at most 1,000 of at
 * most 10 each): far below this bound.
 */
export const MAX_TOPIC_TERM_WEIGHT = 1_000_000;
/** One reviewed topic term's weight; the term review's add box checks a typed weight with it too. */
export const topicTermWeightSchema = z.number().max(MAX_TOPIC_TERM_WEIGHT, `A topic term weighs at most ${MAX_TOPIC_TERM_WEIGHT.toLocaleString('en-US')}`);

export const focusSchema = z.object({
  enabled: z.boolean().default(false),
  keywords: list(keywordSchema, ICD_LIMITS.keywords, 'keywords').default([]),
  entities: list(entitySchema, ICD_LIMITS.entities, 'entities').default([]),
  topics: list(z.string().trim().min(1), ICD_LIMITS.topics, 'topics').default([]),
  /**
   * The crawl's language (ISO 639-3, e.g. 'eng') for stop words and stemming of pages, keywords and
   * anchors alike; unset: detected per text (short or repetitive texts can be misdetected, and a
   * keyword stemmed as English then misses the same word stemmed as Danish).
   */
  language: z.string().regex(/^[a-z]{3}$/, 'an ISO 639-3 code such as eng, fra, deu').optional(),
  urlPatterns: list(urlPatternSchema, ICD_LIMITS.patterns, 'URL patterns').default([]),
  /** Extra hosts/patterns for the spam-link filter, on top of the shipped default list. */
  blacklist: list(blacklistEntry, ICD_LIMITS.blacklist, 'blacklist entries').default([]),
  referenceCrawl: z
    .object({ maxPages: z.number().int().min(1).max(10_000).default(50), maxDepth: z.number().int().min(0).max(10).default(1) })
    .default({ maxPages: 50, maxDepth: 1 }),
  /**
   * Topic vector terms after the archivist's review (term → weight); empty until a reference crawl
   * ran, which proposes at most ICD_LIMITS.topicTerms (its strongest).
   */
  topicTerms: z
    .record(z.string(), topicTermWeightSchema)
    .refine((terms) => Object.keys(terms).length <= ICD_LIMITS.topicTerms, `At most ${ICD_LIMITS.topicTerms.toLocaleString('en-US')} topic terms`)
    .default({}),
  moduleWeights: z
    .object({
      text: moduleWeight.default(1),
      urlPattern: moduleWeight.default(0.3),
      spam: moduleWeight.default(0.3),
      entity: moduleWeight.default(0.5),
      aah: moduleWeight.default(0.3),
    })
    .default({ text: 1, urlPattern: 0.3, spam: 0.3, entity: 0.5, aah: 0.3 }),
  updateFunction: z.enum(['FIRST', 'LAST', 'MAX', 'AVG', 'SUM']).default('AVG'),
  batch: z.object({ enabled: z.boolean().default(false), bl: z.number().int().min(1).max(1000).default(1) }).default({ enabled: false, bl: 1 }),
  relevanceThreshold: z.number().min(0).max(1).default(0.333),
  relevanceWindow: z.number().int().min(1).max(1_000_000).default(1000),
});

export const coherenceSchema = z.object({
  mode: z.enum(['snapshot', 'snapshot-organ-pipes', 'visit-revisit']).default('snapshot'),
  /** Recrawl interval in minutes; 0 = no scheduled recrawls. */
  recrawlIntervalMinutes: z.number().int().min(0).max(525_600).default(0),
  feeds: list(httpUrl, ICD_LIMITS.feeds, 'feeds').default([]),
  minFeedPollMinutes: z.number().int().min(1).max(10_080).default(15),
});

/**
 * A knowledge base's name as the cockpit stores it (PUT /api/knowledge-bases/:name): it is part of
 * a URL path, so only characters that need no escaping there, and not only dots: `.` and `..` are
 * path segments a URL resolves away (/api/knowledge-bases/.. is /api/), so such a knowledge base
 * could be created but never read, changed nor deleted.
 */
export const knowledgeBaseNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,64}$/, 'Name: letters, digits, . _ - (at most 64)')
  .refine((name) => !/^\.+$/.test(name), 'Name: not only dots (. and .. in a URL mean this folder and the one above)');

export const aahSchema = z.object({
  enabled: z.boolean().default(true),
  /**
   * The knowledge base stored in the cockpit that a crawl of this ICD runs with (a copy is taken
   * when the crawl is created). The CLI has no cockpit database and uses the shipped file.
   */
  knowledgeBase: knowledgeBaseNameSchema.default('default'),
});

/** The longest name of a crawl definition, in UTF-16 code units (as zod and the form count). */
export const ICD_NAME_MAX = 200;

export const icdSchema = z.object({
  name: z.string().trim().min(1, 'Give the crawl a name').max(ICD_NAME_MAX),
  description: z.string().max(5000).default(''),
  seeds: list(httpUrl, ICD_LIMITS.seeds, 'seed URLs').min(1, 'At least one seed URL'),
  scope: scopeSchema.default(scopeSchema.parse({})),
  politeness: politenessSchema.default(politenessSchema.parse({})),
  limits: fetchLimitsSchema.default(fetchLimitsSchema.parse({})),
  userAgent: z
    .string()
    .trim()
    .min(1)
    .max(500)
    // Sent as the User-Agent header of every request: a line break or another control character
    // (a\r\nX-Evil: 1) made every request fail before it was sent, robots.txt's first.
    .regex(HTTP_FIELD_VALUE, 'Only characters an HTTP header may carry: printable ones (up to ÿ, U+00FF), spaces and tabs, no line breaks or other control characters')
    .default('Tidemark/0.1 (+https://github.com/tidemark/tidemark; web archiving crawler)'),
  /**
   * Keep the cookies sites set and send them back, as Heritrix and wget do: a consent or session
   * cookie wall is crawled past. In memory for the crawl (a resumed crawl starts with none).
   */
  cookies: z.boolean().default(true),
  warc: z
    .object({
      rotateBytes: z.number().int().min(1024 * 1024).max(100 * 1024 ** 3).default(1024 ** 3),
      gzipLevel: z.number().int().min(0).max(9).default(1),
      /** The warcinfo record's `operator` (Heritrix's too): who made the capture; empty: none written. */
      operator: z.string().trim().max(500).default(''),
    })
    .default({ rotateBytes: 1024 ** 3, gzipLevel: 1, operator: '' }),
  focus: focusSchema.default(focusSchema.parse({})),
  aah: aahSchema.default(aahSchema.parse({})),
  coherence: coherenceSchema.default(coherenceSchema.parse({})),
});

/** An ICD as written by a user (defaults may be missing). */
export type IcdInput = z.input<typeof icdSchema>;
/** A validated ICD with every default filled in. */
export type Icd = z.output<typeof icdSchema>;

/** Parses an ICD, throwing a ZodError that lists every invalid field. */
export function parseIcd(input: unknown): Icd {
  return icdSchema.parse(input);
}
