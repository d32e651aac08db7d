/**
 * Pure checks of what WACZ 1.1.1 (specs.webrecorder.net/wacz/1.1.1) says a package MUST hold,
 * beyond the sizes and hashes its manifest promises (verify-wacz.ts checks those): the manifest's
 * `profile` and `wacz_version`, a page list, an index, only WARC files under `archive/`, and page
 * lines with a URL and an RFC 3339 date. Each returns human-readable problems; none means it holds.
 */

/** A WARC file in a package: WACZ names them `.warc`, or `.warc.gz` when gzip-encoded. */
export const ARCHIVE = /^archive\/[^/]+\.warc(\.gz)?$/;

/** The page list every package holds; other `.jsonl` files beside it follow its format. */
export const PAGES = 'pages/pages.jsonl';
export const PAGE_LIST = /^pages\/[^/]+\.jsonl$/;

/** RFC 3339 date-time (section 5.6; a space for the `T`, as its note allows, and any fraction of a second). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * The package's layout and its manifest's required properties, from the manifest (parsed) and the
 * names of the package's entries.
 */
export function checkWaczLayout(manifest: Record<string, unknown>, entryNames: Iterable<string>): string[] {
  const errors: string[] = [];
  if (manifest.profile !== 'data-package') errors.push(`datapackage.json: profile is ${JSON.stringify(manifest.profile)}, not "data-package"`);
  if (typeof manifest.wacz_version !== 'string' || !manifest.wacz_version) errors.push('datapackage.json has no wacz_version');
  const names = [...entryNames];
  if (!names.includes(PAGES)) errors.push(`no ${PAGES}`);
  if (!names.some((n) => /^indexes\/[^/]+$/.test(n))) errors.push('no index under indexes/');
  for (const name of names) {
    if (name.startsWith('archive/') && !ARCHIVE.test(name)) errors.push(`${name}: not a .warc or .warc.gz file, in archive/, which holds only WARC files`);
  }
  return errors;
}

/**
 * One line of a page list: a JSON object with a `url` and an RFC 3339 `ts` (the header line, which
 * names the list's `format`, excepted); null when it holds. An empty line (the file's last) is none.
 */
export function checkPageLine(line: string): string | null {
  if (!line.trim()) return null;
  let page: unknown;
  try {
    page = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  if (typeof page !== 'object' || page === null || Array.isArray(page)) return 'not a JSON object';
  const p = page as Record<string, unknown>;
  if ('format' in p && !('url' in p)) return null;
  if (typeof p.url !== 'string' || !p.url) return 'no url';
  if (p.ts === undefined) return 'no ts';
  if (typeof p.ts !== 'string' || !RFC3339.test(p.ts)) return `ts ${JSON.stringify(p.ts)} is not an RFC 3339 date`;
  return null;
}
