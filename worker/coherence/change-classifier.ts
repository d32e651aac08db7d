import { sketchJaccard, type PageFingerprint } from './fingerprint';
import { parseDateAsUtc } from '../extract/utc-date';
import { withoutSessionIds } from '../url/session-id';

/**
 * The status of a page between its visit and its revisit, as the coherence view colours it:
 * unchanged (green), content changed (yellow), links changed (red), missing (black).
 */
export type PageStatus = 'unchanged' | 'content-changed' | 'links-changed' | 'missing';

/** What the revisit saw. */
export type RevisitObservation =
  | { kind: 'fetched'; fingerprint: PageFingerprint }
  /**
   * 304 Not Modified. `conditional`: the revisit sent the visit's validators; a 304 to a request
   * without them (some servers send one to any GET) proves nothing of the page.
   */
  | { kind: 'not-modified'; at: number; conditional: boolean }
  /** No usable response (network error, 4xx/5xx, redirect elsewhere). */
  | { kind: 'failed'; at: number; status: number | null; reason: string }
  /**
   * A 2xx whose body decodes to more than the crawl's cap (a decompression bomb): archived, but its
   * text and links were not read.
   */
  | { kind: 'undecodable'; at: number; payloadDigest: string }
  /**
   * Not requested: robots.txt disallows the page now, or is unavailable (which counts as disallowing
   * it), or an exclude pattern of the crawl matches it (one added after its visit).
   */
  | { kind: 'excluded'; at: number; reason: RevisitExclusion };

export type RevisitExclusion = 'robots-disallowed' | 'robots-unavailable' | 'exclude-match';

/**
 * Whether a fetch that ended on `status` (null: no HTTP answer at all — refused, reset, timed out,
 * cut off) is a transient failure, which says nothing of the page: the server or the network failed
 * for now (5xx, 429 Too Many Requests, 408 Request Timeout, or no answer). A redirect or another
 * client error (404, 410…) is the server's definitive answer about the page.
 */
export function transientFailure(status: number | null): boolean {
  return status === null || status >= 500 || status === 429 || status === 408 || status < 200;
}

/** Which test decided, in the order they are tried. */
export type ChangeEvidence =
  | 'not-modified'
  | 'payload-digest'
  | 'main-text-digest'
  | 'shingles'
  | 'out-links'
  | 'content'
  /** A definitive answer: a client error (404, 410…) or a redirect elsewhere. */
  | 'gone'
  /**
   * No answer that says anything of the page (transientFailure): the connection refused or cut, a
   * timeout, a 5xx, 429 or 408. It cannot be proved unchanged, nor shown to have changed.
   */
  | 'unreachable'
  /**
   * The revisit's body decodes to more than the crawl's cap and the visit's did not (a page over it
   * gets no visit fingerprint): its content changed, what it changed to was not read.
   */
  | 'decompression-bomb'
  /**
   * The visit's body was cut off by a failed fetch (a timeout or the connection closed mid-body):
   * there is no whole visit to compare the revisit with. Neither proved unchanged nor changed.
   */
  | 'visit-cut'
  /**
   * A 304 Not Modified to a revisit that sent no validators: the server vouched for nothing it was
   * asked about. Neither proved unchanged nor changed.
   */
  | 'unconditional-304'
  /** Not revisited (RevisitExclusion): nothing proves the page unchanged. */
  | RevisitExclusion;

export interface ChangeVerdict {
  status: PageStatus;
  evidence: ChangeEvidence;
  /** Estimated Jaccard similarity of the main texts, when both were compared. */
  similarity: number | null;
  /** Links added and removed (links-changed only). */
  linksAdded: string[];
  linksRemoved: string[];
  /** The server's validators claimed "same" while the payload differed (or the reverse). */
  validatorsInconsistent: boolean;
}

export interface ClassifyOptions {
  /** Main texts at least this similar are the same content (a changed date or ad is no change). */
  minSimilarity?: number;
}

export const DEFAULT_MIN_SIMILARITY = 0.9;

/**
 * Whether a page's HTTP validators can be trusted for a conditional GET: a strong ETag, or a
 * Last-Modified that is not in the future, not simply "now" (dynamic pages stamp every response),
 * and not older than a timestamp the content itself shows (then the header lies).
 */
export function validatorsTrusted(fp: PageFingerprint): boolean {
  if (fp.etag && !fp.etag.startsWith('W/')) return true;
  if (!fp.lastModified) return false;
  const lm = parseDateAsUtc(fp.lastModified);
  if (!Number.isFinite(lm)) return false;
  if (lm > fp.fetchedAt + 1000) return false;
  if (fp.fetchedAt - lm < 2000) return false;
  if (fp.contentTimestamp && Date.parse(fp.contentTimestamp) > lm + 24 * 3600_000) return false;
  return true;
}

/** Whether two captures' validators say "the same representation". */
function validatorsSaySame(a: PageFingerprint, b: PageFingerprint): boolean | null {
  if (a.etag && b.etag && !a.etag.startsWith('W/') && !b.etag.startsWith('W/')) return a.etag === b.etag;
  if (a.lastModified && b.lastModified) return a.lastModified === b.lastModified;
  return null;
}

/** A page's out-links without their session ids (withoutSessionIds), each once. */
function linksWithoutSessionIds(links: readonly string[]): string[] {
  return [...new Set(links.map(withoutSessionIds))];
}

function difference(a: readonly string[], b: readonly string[]): string[] {
  const inB = new Set(b);
  return a.filter((x) => !inB.has(x));
}

/**
 * Classifies the change of a page between its visit and revisit. Cheapest proof first: a 304 to
 * a trusted conditional GET or an identical payload proves it unchanged (a 304 proves nothing of a visit cut off, nor to a
 * request without validators: missing, `unconditional-304`); a gone page is missing
 * (evidence `gone`), and so is one that gave no usable answer (`unreachable`: transientFailure),
 * and so is one whose visit a failed fetch cut off (`visit-cut`: nothing whole to compare with),
 * and so is one robots.txt or an exclude pattern kept from being revisited (unobserved, it cannot be proved unchanged);
 * a changed set of out-links is a structural change (it alters the capture's link graph);
 * otherwise the main text decides — same digest or near-identical shingles are no change.
 */
export function classifyChange(visit: PageFingerprint, revisit: RevisitObservation, opts: ClassifyOptions = {}): ChangeVerdict {
  const minSimilarity = opts.minSimilarity ?? DEFAULT_MIN_SIMILARITY;
  const verdict = (status: PageStatus, evidence: ChangeEvidence, extra: Partial<ChangeVerdict> = {}): ChangeVerdict => ({
    status, evidence, similarity: null, linksAdded: [], linksRemoved: [], validatorsInconsistent: false, ...extra,
  });
  if (revisit.kind === 'failed') return verdict('missing', transientFailure(revisit.status) ? 'unreachable' : 'gone');
  // Missing, not a fifth status: the certificate, the view and the exports know four; the evidence says why.
  if (revisit.kind === 'excluded') return verdict('missing', revisit.reason);
  // Before the 304 and the bomb: a 304 (some servers send one to an unconditional GET) vouches for the
  // server's page, not for the cut body archived, and a bomb is no change from a visit never seen whole.
  if (visit.cut && revisit.kind !== 'fetched') return verdict('missing', 'visit-cut');
  if (revisit.kind === 'not-modified') return revisit.conditional ? verdict('unchanged', 'not-modified') : verdict('missing', 'unconditional-304');
  if (revisit.kind === 'undecodable') {
    // The same bytes would have decoded as the visit's did: only a digest that differs gets here in practice.
    if (revisit.payloadDigest === visit.payloadDigest) return verdict('unchanged', 'payload-digest', { similarity: 1 });
    return verdict('content-changed', 'decompression-bomb');
  }
  const now = revisit.fingerprint;
  if (now.status >= 300 || now.status < 200) return verdict('missing', 'gone');
  if (visit.cut) return verdict('missing', 'visit-cut');
  const same = validatorsSaySame(visit, now);
  if (now.payloadDigest === visit.payloadDigest) return verdict('unchanged', 'payload-digest', { similarity: 1, validatorsInconsistent: same === false && Boolean(visit.etag && now.etag) });
  const validatorsInconsistent = same === true;
  // Links read without session ids: a server writing the visitor's session into each link would
  // change them all at every request, the page itself unchanged.
  const linksNow = linksWithoutSessionIds(now.outLinks);
  const linksThen = linksWithoutSessionIds(visit.outLinks);
  const linksAdded = difference(linksNow, linksThen);
  const linksRemoved = difference(linksThen, linksNow);
  const similarity = now.textDigest === visit.textDigest ? 1 : sketchJaccard(visit.sketch, now.sketch);
  if (linksAdded.length || linksRemoved.length) return verdict('links-changed', 'out-links', { similarity, linksAdded, linksRemoved, validatorsInconsistent });
  if (now.textDigest === visit.textDigest) return verdict('unchanged', 'main-text-digest', { similarity, validatorsInconsistent });
  if (similarity >= minSimilarity) return verdict('unchanged', 'shingles', { similarity, validatorsInconsistent });
  return verdict('content-changed', 'content', { similarity, validatorsInconsistent });
}
