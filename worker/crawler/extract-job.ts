import type { ExtractedLink, LinkKind, ResponseExtraction } from '../extract';
import type { QueryHandling } from '../url';
import { joinLines, splitLines } from './line-list';

/** A response as it crosses to the extraction thread: what extractFromResponse reads, the body in a buffer of its own. */
export interface ExtractJob {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Uint8Array<ArrayBuffer>;
  truncated: boolean;
  maxDecodedBytes: number;
  queryHandling: QueryHandling;
}

/**
 * Links as they cross back: postMessage clones objects field by field, and a page's fifty link
 * objects cost more than all the rest of its answer (analysis-job.ts measured the same for the
 * analysis thread). Canonical URLs, kinds and sources never hold a line break, so lines separate them.
 */
export interface PackedLinks {
  urls: string;
  kinds: string;
  sources: string;
  /** Indexes of the links marked nofollow; absent when none is. */
  nofollow?: number[];
  /** [index, anchorText, context] of the links that carry texts. */
  texts?: [number, string, string][];
}

export type PackedExtraction = Omit<ResponseExtraction, 'links'> & { links: PackedLinks };

/** The body copied into a buffer of its own, to move rather than clone (a Buffer may be a view into a larger pool). */
export function jobBody(body: Uint8Array): Uint8Array<ArrayBuffer> {
  const own = new Uint8Array(body.byteLength);
  own.set(body);
  return own;
}

export function packExtraction(result: ResponseExtraction): PackedExtraction {
  const { links } = result;
  const packed: PackedLinks = { urls: joinLines(links, (l) => l.url), kinds: joinLines(links, (l) => l.kind), sources: joinLines(links, (l) => l.source) };
  const nofollow: number[] = [];
  const texts: [number, string, string][] = [];
  links.forEach((l, i) => {
    if (l.nofollow) nofollow.push(i);
    if (l.anchorText || l.context) texts.push([i, l.anchorText, l.context]);
  });
  if (nofollow.length) packed.nofollow = nofollow;
  if (texts.length) packed.texts = texts;
  return { ...result, links: packed };
}

export function unpackExtraction(packed: PackedExtraction): ResponseExtraction {
  const { urls, kinds, sources, nofollow, texts } = packed.links;
  const kindOf = splitLines(kinds);
  const sourceOf = splitLines(sources);
  const links: ExtractedLink[] = splitLines(urls).map((url, i) => ({ url, kind: kindOf[i] as LinkKind, source: sourceOf[i]!, anchorText: '', context: '' }));
  for (const i of nofollow ?? []) links[i]!.nofollow = true;
  for (const [i, anchorText, context] of texts ?? []) Object.assign(links[i]!, { anchorText, context });
  return { ...packed, links };
}
