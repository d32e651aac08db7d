import { canonicalize, type QueryHandling } from '../url';
import { jsonObjectOf } from './json-object';
import type { ExtractedLink } from './types';

/** A web app manifest longer than this is not read: real ones are a few KB, and JSON.parse holds the thread. */
export const MAX_MANIFEST_CHARS = 1024 * 1024;

/** An array member of the manifest, or none. */
const arrayOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
/** The `src` of an image resource, when it is a string. */
const srcOf = (image: unknown): unknown => (image && typeof image === 'object' ? (image as Record<string, unknown>).src : undefined);

/**
 * The images a web app manifest (`<link rel=manifest>`) lists, as requisites: `icons[].src`,
 * `screenshots[].src` and `shortcuts[].icons[].src`, resolved against the manifest's own URL (W3C
 * Web Application Manifest, processing image resources). A manifest that is no JSON object, or
 * longer than MAX_MANIFEST_CHARS, yields nothing: it is archived as it is. Never throws.
 */
export function extractManifestLinks(json: string, url: string, opts: { queryHandling?: QueryHandling } = {}): ExtractedLink[] {
  if (json.length > MAX_MANIFEST_CHARS) return [];
  const manifest = jsonObjectOf(json);
  if (!manifest) return [];
  const images: [unknown, string][] = [
    ...arrayOf(manifest.icons).map((i): [unknown, string] => [srcOf(i), 'manifest@icons']),
    ...arrayOf(manifest.screenshots).map((i): [unknown, string] => [srcOf(i), 'manifest@screenshots']),
    ...arrayOf(manifest.shortcuts).flatMap((s) => arrayOf(s && typeof s === 'object' ? (s as Record<string, unknown>).icons : undefined).map((i): [unknown, string] => [srcOf(i), 'manifest@shortcuts'])),
  ];
  const seen = new Set<string>();
  const links: ExtractedLink[] = [];
  for (const [src, source] of images) {
    const resolved = typeof src === 'string' && src.trim() ? canonicalize(src.trim(), url, opts) : null;
    if (!resolved || seen.has(resolved)) continue;
    seen.add(resolved);
    links.push({ url: resolved, kind: 'requisite', source, anchorText: '', context: '' });
  }
  return links;
}
