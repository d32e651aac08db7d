import type { ExtractedLink } from '../../worker/extract';

/** Extracted links grouped as `source:kind` → URLs, in document order: one assertion per source. */
export function bySource(links: readonly ExtractedLink[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const l of links) (out[`${l.source}:${l.kind}`] ??= []).push(l.url);
  return out;
}
