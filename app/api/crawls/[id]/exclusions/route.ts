import { z } from 'zod';
import { fieldValue } from '../../../../../worker/icd/stored-icd-repair';
import { excludePatternSchema } from '../../../../../worker/icd/add-exclude-pattern';
import { waitingUrlsMatching, type WaitingMatches } from '../../../../../worker/frontier/waiting-matches';
import { crawlExclusions } from '../../../../../worker/crawler/live-exclusions';
import { addLiveExclusion, removeLiveExclusion } from '../../../../../worker/process/crawl-requests';
import { isTerminal } from '../../../../../worker/process/crawl-control';
import { parseJsonOr, settledRequest } from '../../../../lib/server/crawl-views';
import { HttpError, apiRoute, idParam, readJson } from '../../../../lib/server/handler';

export const dynamic = 'force-dynamic';

/** Most matching URLs a test shows. */
const MAX_EXAMPLES = 20;

/**
 * GET /api/crawls/:id/exclusions[?test=<pattern>] [view] → `{patterns: [{pattern, live, addedAt,
 * appliedAt, excluded}], ended, test?: {pattern, matching, examples, tested, partial, waiting, hosts, hostsTested, moreHostsAfter}}`. `patterns`: the crawl's
 * `scope.exclude`, those added while it ran marked `live` (with when the worker applied them and how
 * many waiting URLs that excluded). With `test`: how many of the crawl's queued or retrying URLs the
 * pattern matches and the first 20, so the archivist can check it before adding it (400 when it is
 * not a pattern the ICD would take, as POST). It runs on the server's thread, so it looks at
 * 10,000 waiting URLs at most (MAX_TESTED_URLS), shared between the hosts, of 5,000 hosts at most
 * (MAX_LISTED_HOSTS; `moreHostsAfter` names the last one listed when more were left out) (waiting-matches.ts):
 * `tested` says how many, `partial` that more wait (then at least `matching` match, and `waiting`
 * is the crawl's own count of its waiting URLs, as its stats last said, or those counted if more).
 */
export const GET = apiRoute<{ id: string }>('view', async ({ req, params, prisma, db }) => {
  const id = idParam(params.id);
  const crawl = await prisma.crawl.findUnique({ where: { id }, select: { definition: true, status: true, stats: true } });
  if (!crawl) throw new HttpError(404, 'not found');
  const raw = new URL(req.url).searchParams.get('test');
  let test: (WaitingMatches & { pattern: string }) | undefined;
  if (raw !== null) {
    const checked = excludePatternSchema.safeParse(raw);
    if (!checked.success) {
      const message = checked.error.issues[0]!.message;
      throw new HttpError(400, message, [{ path: ['test'], message }]);
    }
    test = { pattern: raw, ...waitingUrlsMatching(db, id, raw, MAX_EXAMPLES) };
    // A partial test counts the queues only as far as it looks (its `waiting` is a least): the
    // crawl's own count of its waiting URLs (queued and retrying, the worker's counters) says how many.
    const counted = parseJsonOr<{ queued?: unknown }>(crawl.stats, {}).queued;
    if (test.partial && typeof counted === 'number' && counted > test.waiting) test.waiting = counted;
  }
  // As stored, not parsed: a crawl paused for settings this version refuses (a pattern that can
  // backtrack) lists its patterns too, beside the form that corrects them (a parse answered 400, as
  // if the request were invalid).
  const stored = fieldValue(JSON.parse(crawl.definition), 'scope.exclude');
  const exclude = Array.isArray(stored) ? stored.filter((p): p is string => typeof p === 'string') : [];
  return { patterns: crawlExclusions(db, id, exclude), ended: isTerminal(crawl.status), ...(test ? { test } : {}) };
});

const bodySchema = z.object({ pattern: excludePatternSchema }).strict();

/**
 * POST /api/crawls/:id/exclusions [run] `{pattern}` → 201 `{id, pattern, addedAt}`. Adds an exclude
 * pattern to the crawl while it runs (Browsertrix's "Edit exclusions"): into its own ICD copy, so a
 * paused, resumed or restarted crawl keeps it; its worker applies it within a second (a paused or
 * waiting crawl when it runs): links found from then on are excluded as `exclude-match`, and so is
 * every queued or retrying URL that matches. URLs in flight finish. 400 when the pattern is not one
 * the ICD's `scope.exclude` takes (it does not compile, or can backtrack exponentially) or is empty;
 * 409 once the crawl has ended or is being stopped, when it excludes the pattern already, or has the
 * ICD's most patterns.
 */
export const POST = apiRoute<{ id: string }>('run', async ({ req, params, db, user }) => {
  const id = idParam(params.id);
  const { pattern } = await readJson(req, bodySchema);
  const added = settledRequest(addLiveExclusion(db, id, pattern, user.id));
  return Response.json(added, { status: 201, headers: { 'cache-control': 'no-store' } });
});

/** Any pattern the crawl excludes may be removed, one stored before today's checks on patterns too. */
const removalSchema = z.object({ pattern: z.string().min(1, 'Enter a pattern') }).strict();

/**
 * DELETE /api/crawls/:id/exclusions [run] `{pattern}` → 200 `{pattern}`. Takes an exclude pattern
 * out of the crawl while it runs (one added live or one of the ICD it was created from): out of its
 * ICD copy and its list of patterns added live. Its worker drops it from the crawl's scope within a
 * second: links found from then on that match it are taken again. The URLs it excluded stay
 * excluded (as Heritrix's); pages under way finish. 409 once the crawl has ended or is being
 * stopped, or when the crawl does not exclude the pattern.
 */
export const DELETE = apiRoute<{ id: string }>('run', async ({ req, params, db }) => {
  const id = idParam(params.id);
  const { pattern } = await readJson(req, removalSchema);
  return Response.json(settledRequest(removeLiveExclusion(db, id, pattern)), { headers: { 'cache-control': 'no-store' } });
});
