import type { ChangeEvidence, PageStatus } from './change-classifier';

/**
 * What the cockpit's coherence view draws, computed from plain rows (pure): the discovery tree
 * with coherent-page counts, the GraphML export, the change-rate histogram and a word diff of
 * visit and revisit text.
 */

export type MimeClass = 'html' | 'media' | 'other';

export interface CoherencePageRow {
  /** The page's row: what the cockpit asks its detail by (a URL may be longer than a request line takes). */
  id: number;
  url: string;
  parentUrl: string | null;
  depth: number;
  mime: string | null;
  status: PageStatus | null;
  changeRate: number | null;
  /** Visited after the run's reference time (see visitedAfterReference): never revisited in this run. */
  afterReference?: boolean;
}

/**
 * A page's status in the tree: its classification; else `after-reference` when it was visited after
 * the run's reference time (a URL posted, or found by a sitemap or feed, during the revisit pass of
 * a crawl with feeds or recrawls: visited after the pass, outside the certificate, never revisited
 * in this run); else `pending` (not revisited yet).
 */
export type TreeStatus = PageStatus | 'pending' | 'after-reference';

export function treeStatusOf(row: Pick<CoherencePageRow, 'status' | 'afterReference'>): TreeStatus {
  return row.status ?? (row.afterReference ? 'after-reference' : 'pending');
}

export interface TreeNode {
  /** The page's row id (CoherencePageRow.id). */
  id: number;
  url: string;
  status: TreeStatus;
  mimeClass: MimeClass;
  /** Pages proved unchanged in this subtree, this one included. */
  coherentBelow: number;
  children: TreeNode[];
}

export function mimeClassOf(mime: string | null): MimeClass {
  const m = (mime ?? '').toLowerCase();
  if (m.includes('html')) return 'html';
  if (/^(image|video|audio)\//.test(m)) return 'media';
  return 'other';
}

/** The URLs a page's URL sits under, nearest first (`/a/b/c` → `/a/b/`, `/a/b`, `/a/`, `/a`, `/`). */
function pathAncestors(url: string): string[] {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return [];
  }
  const out: string[] = [];
  const segs = u.pathname.split('/');
  // Drop the last segment (or the empty one after a trailing slash) one at a time.
  for (let n = segs.length - 1; n >= 1; n--) {
    const path = segs.slice(0, n).join('/') + '/';
    out.push(u.origin + path);
    if (n > 1) out.push(u.origin + path.slice(0, -1));
  }
  return out.filter((a) => a !== url);
}

/**
 * Each page's parent in the tree: the page that linked to it first; for a page found another way
 * (a sitemap, a feed: its discovering URL is no page of the capture), the nearest page above it in
 * the URL path, so sitemap-found pages sit in the site's sections rather than all at the top. Null
 * for roots. Never makes a cycle.
 */
function treeParents(rows: readonly CoherencePageRow[]): Map<string, string | null> {
  const urls = new Set(rows.map((r) => r.url));
  const parents = new Map<string, string | null>();
  const orphans: CoherencePageRow[] = [];
  for (const r of rows) {
    if (r.parentUrl && r.parentUrl !== r.url && urls.has(r.parentUrl)) parents.set(r.url, r.parentUrl);
    else orphans.push(r);
  }
  const leadsTo = (from: string, target: string): boolean => {
    const seen = new Set<string>();
    for (let at: string | null | undefined = from; at; at = parents.get(at)) {
      if (at === target) return true;
      if (seen.has(at)) return false;
      seen.add(at);
    }
    return false;
  };
  for (const r of orphans) {
    const seed = r.parentUrl === null || r.parentUrl === r.url;
    const above = seed ? undefined : pathAncestors(r.url).find((a) => urls.has(a) && !leadsTo(a, r.url));
    parents.set(r.url, above ?? null);
  }
  return parents;
}

/**
 * The capture's spanning tree: each page under the page that linked to it first (see treeParents
 * for pages found otherwise); roots are the seeds, usually. Children sorted by URL.
 */
export function buildDiscoveryTree(rows: readonly CoherencePageRow[]): TreeNode[] {
  const nodes = new Map<string, TreeNode>();
  for (const r of rows) nodes.set(r.url, { id: r.id, url: r.url, status: treeStatusOf(r), mimeClass: mimeClassOf(r.mime), coherentBelow: 0, children: [] });
  const roots: TreeNode[] = [];
  const parents = treeParents(rows);
  for (const r of rows) {
    const node = nodes.get(r.url)!;
    const parentUrl = parents.get(r.url);
    (parentUrl ? nodes.get(parentUrl)!.children : roots).push(node);
  }
  const count = (n: TreeNode, path: Set<TreeNode>): number => {
    if (path.has(n)) return 0; // a cycle cannot arise from first-discovery parents; guard anyway
    path.add(n);
    n.children.sort((a, b) => (a.url < b.url ? -1 : 1));
    n.coherentBelow = (n.status === 'unchanged' ? 1 : 0) + n.children.reduce((s, c) => s + count(c, path), 0);
    return n.coherentBelow;
  };
  roots.sort((a, b) => (a.url < b.url ? -1 : 1));
  for (const r of roots) count(r, new Set());
  return roots;
}

function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** The discovery tree as GraphML (nodes with url, status, MIME class, change rate; parent → child edges, as buildDiscoveryTree's). */
export function toGraphML(rows: readonly CoherencePageRow[]): string {
  const ids = new Map(rows.map((r, i) => [r.url, `n${i}`]));
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">',
    '  <key id="url" for="node" attr.name="url" attr.type="string"/>',
    '  <key id="status" for="node" attr.name="status" attr.type="string"/>',
    '  <key id="mime" for="node" attr.name="mimeClass" attr.type="string"/>',
    '  <key id="rate" for="node" attr.name="changesPerDay" attr.type="double"/>',
    '  <graph id="capture" edgedefault="directed">',
  ];
  for (const r of rows) {
    lines.push(`    <node id="${ids.get(r.url)}"><data key="url">${xmlEscape(r.url)}</data><data key="status">${treeStatusOf(r)}</data><data key="mime">${mimeClassOf(r.mime)}</data>${r.changeRate === null ? '' : `<data key="rate">${r.changeRate}</data>`}</node>`);
  }
  let e = 0;
  const parents = treeParents(rows);
  for (const r of rows) {
    const parentUrl = parents.get(r.url);
    if (parentUrl) lines.push(`    <edge id="e${e++}" source="${ids.get(parentUrl)}" target="${ids.get(r.url)}"/>`);
  }
  lines.push('  </graph>', '</graphml>', '');
  return lines.join('\n');
}

export interface HistogramBin {
  /** Lower bound in changes per day (0 for the "no change seen" bin). */
  from: number;
  to: number;
  count: number;
}

/** Histogram of change rates over decades (10⁻³ … 10⁴ per day); rate 0 gets its own bin. */
export function rateHistogram(rates: readonly number[]): HistogramBin[] {
  const bins: HistogramBin[] = [{ from: 0, to: 0, count: 0 }];
  for (let e = -3; e < 4; e++) bins.push({ from: 10 ** e, to: 10 ** (e + 1), count: 0 });
  for (const r of rates) {
    if (!(r > 0)) bins[0]!.count++;
    else bins[Math.min(bins.length - 1, Math.max(1, Math.floor(Math.log10(r)) + 4))]!.count++;
  }
  return bins;
}

export interface DiffSegment {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** A paragraph break, in a diff's tokens and in its segments' text. */
const PARAGRAPH_BREAK = '\n\n';

/**
 * The tokens of a text for the word diff: its words, and a PARAGRAPH_BREAK where a run of
 * whitespace holds a line break (the stored main text parts its paragraphs with blank lines).
 */
function diffTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const run of text.split(/(\s+)/)) {
    if (!run) continue;
    if (!/\s/.test(run)) tokens.push(run);
    else if (run.includes('\n') && tokens.length && tokens[tokens.length - 1] !== PARAGRAPH_BREAK) tokens.push(PARAGRAPH_BREAK);
  }
  if (tokens[tokens.length - 1] === PARAGRAPH_BREAK) tokens.pop();
  return tokens;
}

/** Whether two tokens (or texts) meet with a space: not at a paragraph break. */
const spaced = (before: string, after: string): boolean => !before.endsWith('\n') && !after.startsWith('\n');

/**
 * Word diff of two texts, for highlighting what changed between visit and revisit: every word of
 * both comes out, in order, and the words kept are as many as can be (a shortest edit, Myers'
 * O((N+M)·D) algorithm, so a long page with a few changes costs little). When the texts differ
 * too much for `budget` steps, what lies between their common head and tail is shown as removed,
 * then added. (Comparing only the first 1,500 words showed the curator a long page cut short, and
 * a change further down unmarked.) Paragraph breaks are tokens of the diff too, kept in the
 * segments' text as a blank line (words are parted by one space), so each side shows its own
 * paragraphs: `sideSegments` puts them together.
 */
export function diffWords(before: string, after: string, budget = 20_000_000): DiffSegment[] {
  const a = diffTokens(before);
  const b = diffTokens(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const out: DiffSegment[] = [];
  const push = (kind: DiffSegment['kind'], tokens: readonly string[]) => {
    if (!tokens.length) return;
    let text = '';
    for (const t of tokens) text += text && spaced(text, t) ? ` ${t}` : t;
    const last = out.at(-1);
    if (last && last.kind === kind) last.text += spaced(last.text, text) ? ` ${text}` : text;
    else out.push({ kind, text });
  };
  push('same', a.slice(0, head));
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const edits = shortestEdit(midA, midB, budget);
  if (edits) for (const [kind, word] of edits) push(kind, [word]);
  else {
    push('removed', midA);
    push('added', midB);
  }
  push('same', a.slice(a.length - tail));
  return out;
}

/** A segment as one side of the diff shows it, after `gap`: a space, or nothing at a paragraph break. */
export interface SideSegment extends DiffSegment {
  gap: string;
}

/**
 * The segments one side shows — the visit its kept and removed words, the revisit its kept and
 * added ones — each with the gap that parts it from the one before, so the side reads as its text
 * did, paragraphs included.
 */
export function sideSegments(segments: readonly DiffSegment[], side: 'visit' | 'revisit'): SideSegment[] {
  const hidden = side === 'visit' ? 'added' : 'removed';
  const out: SideSegment[] = [];
  for (const s of segments) {
    if (s.kind === hidden || !s.text) continue;
    const before = out.at(-1);
    out.push({ ...s, gap: before && spaced(before.text, s.text) ? ' ' : '' });
  }
  return out;
}

/**
 * A shortest edit script from `a` to `b` (Myers 1986, greedy forward search; each step's furthest
 * points are kept, -d…d only, to walk back), word by word; null when it takes more than `budget`
 * comparisons, or more than 2,000 edits (4 M kept points).
 */
function shortestEdit(a: readonly string[], b: readonly string[], budget: number): [DiffSegment['kind'], string][] | null {
  const n = a.length;
  const m = b.length;
  const maxD = Math.min(n + m, 2_000);
  let work = 0;
  // v[k + offset]: the furthest x reached on diagonal k (y = x − k).
  const offset = maxD + 1;
  const v = new Int32Array(2 * maxD + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= maxD && found < 0 && work <= budget; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      const from = x;
      while (x < n && y < m && a[x] === b[y]) { x++; y++; }
      work += x - from + 1;
      v[offset + k] = x;
      if (x >= n && y >= m) { found = d; break; }
    }
  }
  if (found < 0) return null;
  const edits: [DiffSegment['kind'], string][] = [];
  let x = n;
  let y = m;
  for (let d = found; d >= 0; d--) {
    // trace[d] holds diagonals -d-1 … d+1 as they were before step d.
    const at = (k: number) => trace[d]![k + d + 1]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : at(prevK);
    const prevY = d === 0 ? 0 : prevX - prevK;
    while (x > prevX && y > prevY) edits.push(['same', a[--x]!]), y--;
    if (d > 0) {
      if (x === prevX) edits.push(['added', b[--y]!]);
      else edits.push(['removed', a[--x]!]);
    }
  }
  return edits.reverse();
}

/** What decided a page's status, in the curator's words (the stored evidence is a code). */
const EVIDENCE_TEXT: Record<ChangeEvidence, string> = {
  'not-modified': 'the server answered 304 Not Modified to a conditional request',
  'payload-digest': 'the same payload digest',
  'main-text-digest': 'the same main text',
  shingles: 'near-identical main text (shingle similarity)',
  'out-links': 'a changed set of out-links',
  content: 'changed main text',
  gone: 'the page gone or moved at the revisit (a client error or a redirect)',
  'decompression-bomb': 'the revisit decodes to more than the crawl allows (a decompression bomb), the visit did not: changed, its new text not read',
  unreachable: 'no answer about the page at the revisit (no connection, a timeout or a server error): neither proved unchanged nor changed',
  'visit-cut': 'the visit\'s body was cut off (the connection closed or a timeout): nothing whole to compare the revisit with, neither proved unchanged nor changed',
  'unconditional-304': 'the server answered 304 Not Modified to a revisit that sent no validators (its visit\'s were not trusted): that proves nothing, neither unchanged nor changed',
  'robots-disallowed': 'no revisit: robots.txt now disallows the page',
  'robots-unavailable': 'no revisit: robots.txt could not be fetched',
  'exclude-match': 'no revisit: an exclude pattern of the crawl matches the page',
};

/** The evidence in words; a code this build does not know is shown as it is. */
export function evidenceText(evidence: string): string {
  return (EVIDENCE_TEXT as Record<string, string | undefined>)[evidence] ?? evidence;
}

/**
 * The heading of the revisit's text in a page's detail: when it was made, and why there is no text
 * to compare when there is none (a 304 keeps the visit's text; an error, a gone page or robots.txt
 * leave nothing), so an empty column is not taken for an empty page.
 */
export function revisitHeading(page: { revisitedAt: string | null; evidence: string | null; hasText: boolean; afterReference?: boolean }, formatTime: (iso: string) => string): string {
  if (!page.revisitedAt) return page.afterReference ? `Revisit · none: ${AFTER_REFERENCE_TEXT}` : 'Revisit · not made yet';
  if (page.evidence === 'robots-disallowed' || page.evidence === 'robots-unavailable' || page.evidence === 'exclude-match') return `Revisit · not made (${formatTime(page.revisitedAt)}): ${evidenceText(page.evidence).replace(/^no revisit: /, '')}`;
  const at = `Revisit · ${formatTime(page.revisitedAt)}`;
  if (page.hasText) return at;
  if (page.evidence === 'not-modified') return `${at} · 304 Not Modified: the text is the visit's`;
  return `${at} · no text to compare`;
}

/** Why a page visited after the run's reference time has no revisit and no status, in the curator's words. */
export const AFTER_REFERENCE_TEXT = "visited after the reference time — outside this capture's certificate, not revisited in this run";

/** What the coherence view knows of the crawl itself. */
export interface CrawlCoherenceState {
  /** created | running | paused | stopping | stopped | finished | failed */
  status: string;
  /** The ICD's coherence mode: snapshot, snapshot-organ-pipes or visit-revisit. */
  mode: string;
  error: string | null;
}

/**
 * Why a crawl's coherence view has no page to show, in the curator's words: a crawl that is not
 * visit–revisit has no revisits; one that is has not captured an HTML page yet, or ended (or
 * failed) without one. (The view told every one of them to set the ICD's mode to visit-revisit.)
 */
export function noCaptureText(crawl: CrawlCoherenceState): string {
  if (crawl.mode !== 'visit-revisit') {
    return `This crawl runs in ${crawl.mode} mode: its pages are not revisited, so it has no coherence to show. A crawl whose ICD sets the coherence mode to visit-revisit has one.`;
  }
  if (crawl.status === 'failed') return `The crawl failed before it captured any HTML page${crawl.error ? ` (${crawl.error})` : ''}: there is nothing to revisit.`;
  if (crawl.status === 'finished' || crawl.status === 'stopped') return 'The crawl ended without capturing any HTML page (its crawl log says why): there is nothing to revisit.';
  return 'No HTML page captured yet: the pages show here as the visit pass captures them, then their revisits.';
}
