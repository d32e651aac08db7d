import { parse } from 'es-module-lexer';
import { jsonObjectOf } from './json-object';
import { canonicalize, type QueryHandling } from '../url';
import type { ExtractedLink } from './types';

/**
 * What an ES module graph declares: the specifiers a module imports (es-module-lexer, the lexer
 * Vite and es-module-shims use: one pass, no AST) and the addresses of an import map. A browser
 * fetches all of them before the page's script runs, so a capture without them replays as a
 * script that fails at its first import.
 */

/** Specifiers kept of one module: a graph of thousands of unbundled files is still read whole. */
export const MAX_MODULE_SPECIFIERS = 5000;
/** Longest module source looked into, in characters (a body's, in bytes): a bigger one is archived, not lexed. */
export const MAX_MODULE_CHARS = 16 * 1024 * 1024;

/**
 * The specifiers `source` imports, in order: `import … from`, `import '…'`, `export … from`,
 * `export * from` and `import()` of one string literal. Left out: `import()` of anything else (a
 * variable, a template with substitutions: computed at run time), TypeScript's `import type`
 * (erased before a browser sees it) and `import.meta`. Source and defer phase imports are kept:
 * a browser fetches what they name too. A source the lexer cannot read (not
 * JavaScript, or cut short) yields none: a browser would not run it either.
 */
export function moduleSpecifiers(source: string, options: { max?: number; maxChars?: number } = {}): string[] {
  if (source.length > (options.maxChars ?? MAX_MODULE_CHARS)) return [];
  // Most classic scripts never name `import`: skip the lexer for them (the benchmark's shared script).
  if (!source.includes('import') && !source.includes('export')) return [];
  let imports;
  try {
    [imports] = parse(source);
  } catch {
    return [];
  }
  const max = options.max ?? MAX_MODULE_SPECIFIERS;
  const out: string[] = [];
  for (const i of imports) {
    if (out.length >= max) break;
    if (i.type === 'import-meta') continue;
    if (i.type === 'dynamic' ? i.glob : i.typeOnly) continue;
    if (i.specifier) out.push(i.specifier);
  }
  return out;
}

/**
 * Whether a browser resolves the specifier as a URL, import map or not (HTML standard, "resolve a
 * URL-like module specifier"): it starts with `/`, `./` or `../`, or is an absolute URL. Anything
 * else (`lodash`, `dir/x.js`) is bare: only an import map gives it a URL.
 */
export function isUrlLike(specifier: string): boolean {
  return /^(\/|\.\.?\/|[a-z][a-z\d+.-]*:)/i.test(specifier);
}

/** An `<script type="importmap">`'s addresses as written. */
export interface ImportMap {
  /** Every address of `imports` and of each `scopes` entry that names one resource (URL-like, not ending in `/`). */
  addresses: string[];
  /** The top-level `imports` (specifier → URL-like address). */
  imports: ReadonlyMap<string, string>;
  /** Each scope's prefix as written → its imports (specifier → URL-like address). */
  scopes: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/**
 * The import maps of one document, their addresses and scope prefixes made absolute against its
 * base URL: what a bare specifier of any module of its graph resolves through, the page's inline
 * modules' and those of the modules they load (the HTML standard's "resolve a module specifier").
 */
export interface ResolvedImportMap {
  /** Specifier (or prefix ending in `/`) → absolute URL. */
  imports: Map<string, string>;
  /** Scope prefix (an absolute URL) → its specifiers, as `imports`. */
  scopes: Map<string, Map<string, string>>;
}

/** A document's import map before any `<script type="importmap">`: maps nothing. */
export function emptyImportMap(): ResolvedImportMap {
  return { imports: new Map(), scopes: new Map() };
}

/** Whether the map maps anything. */
export function mapsAnything(map: ResolvedImportMap): boolean {
  return map.imports.size > 0 || map.scopes.size > 0;
}

/** `address` made absolute against `base`, or null when it is no URL there. */
function absolute(address: string, base: string): string | null {
  try {
    return new URL(address, base).href;
  } catch {
    return null;
  }
}

/**
 * The URL a URL-like specifier names (HTML standard, "resolve a URL-like module specifier"): one
 * starting with `/`, `./` or `../` parsed against `base`, else an absolute URL; null for a bare one.
 */
function urlLikeSpecifierUrl(specifier: string, base: string): string | null {
  if (/^(\/|\.\.?\/)/.test(specifier)) return absolute(specifier, base);
  try {
    return new URL(specifier).href;
  } catch {
    return null;
  }
}

/**
 * Adds `from`'s entries to `into`, each address made absolute against `base`, each URL-like key too
 * (`/a.js`, `./x.js`, `https://CDN.example/lib.js` → the URL it names: "normalize a specifier key"),
 * so a URL-like import is looked up as the URL it names; one `into` maps already keeps its address.
 */
function addEntries(into: Map<string, string>, from: ReadonlyMap<string, string>, base: string): void {
  for (const [written, address] of from) {
    if (written === '') continue;
    const specifier = urlLikeSpecifierUrl(written, base) ?? written;
    const url = into.has(specifier) ? null : absolute(address, base);
    if (url !== null) into.set(specifier, url);
  }
}

/**
 * Adds a document's import map (read at `baseUrl`, the document's base URL then) to the maps read
 * before it, as a browser merges a later map: what is mapped already, top level or in the same
 * scope, keeps its address (HTML standard, "merge existing and new import maps").
 */
export function addImportMap(into: ResolvedImportMap, map: ImportMap, baseUrl: string): void {
  addEntries(into.imports, map.imports, baseUrl);
  for (const [prefix, imports] of map.scopes) {
    const scope = absolute(prefix, baseUrl);
    if (scope === null) continue;
    if (!into.scopes.has(scope)) into.scopes.set(scope, new Map());
    addEntries(into.scopes.get(scope)!, imports, baseUrl);
  }
}

/**
 * The absolute URL a specifier imported by a module at `referrer` (its URL; an inline module's, its
 * document's base URL) resolves to (HTML standard, "resolve a module specifier"): a URL-like one is
 * first parsed against `referrer`, and that URL is looked up as a bare one is; through `map`'s scopes
 * whose prefix is `referrer` or, ending in `/`, starts it, the most specific first, then its
 * top-level imports (`map` null: none). Else the URL a URL-like specifier names; null for a bare
 * specifier nothing maps (a browser fails it).
 */
export function resolveModuleSpecifier(specifier: string, map: ResolvedImportMap | null, referrer: string): string | null {
  const asUrl = urlLikeSpecifierUrl(specifier, referrer);
  if (map === null) return asUrl;
  const normalized = asUrl ?? specifier;
  // Code-unit order, descending, puts a prefix after every longer one it starts (HTML standard, "sort and normalize scopes").
  for (const prefix of [...map.scopes.keys()].sort().reverse()) {
    if (prefix !== referrer && !(prefix.endsWith('/') && referrer.startsWith(prefix))) continue;
    const url = mapSpecifier(normalized, map.scopes.get(prefix)!, asUrl);
    if (url !== null) return url;
  }
  return mapSpecifier(normalized, map.imports, asUrl) ?? asUrl;
}

/** Addresses kept of one import map, as for one module. */
const MAX_MAP_ENTRIES = MAX_MODULE_SPECIFIERS;

/**
 * The import map in `json`, or null when it is no JSON object (a browser reports it and ignores it).
 * An address ending in `/` maps a prefix, not a resource, and is left out of `addresses`; a bare
 * address is invalid in a browser too.
 */
export function parseImportMap(json: string): ImportMap | null {
  const map = jsonObjectOf(json);
  if (!isObject(map)) return null;
  const addresses: string[] = [];
  const take = (table: unknown) => {
    if (!isObject(table)) return;
    for (const value of Object.values(table)) {
      if (addresses.length >= MAX_MAP_ENTRIES) return;
      if (typeof value === 'string' && isUrlLike(value) && !value.endsWith('/')) addresses.push(value);
    }
  };
  take(map.imports);
  if (isObject(map.scopes)) for (const scope of Object.values(map.scopes)) take(scope);
  const scopes = new Map<string, ReadonlyMap<string, string>>();
  if (isObject(map.scopes)) for (const [prefix, scope] of Object.entries(map.scopes)) if (isObject(scope)) scopes.set(prefix, specifierTable(scope));
  return { addresses, imports: isObject(map.imports) ? specifierTable(map.imports) : new Map(), scopes };
}

/** A specifier table's entries whose address is URL-like (a browser ignores the others), at most MAX_MAP_ENTRIES. */
function specifierTable(table: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(table)) {
    if (out.size >= MAX_MAP_ENTRIES) break;
    if (typeof value === 'string' && isUrlLike(value)) out.set(key, value);
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Schemes whose URLs a prefix key may map (the WHATWG URL standard's special schemes). */
const SPECIAL_SCHEME = /^(https?|wss?|ftp|file):/;

/**
 * The address a specifier maps to through `imports` ("resolve an imports match"): its own entry,
 * else the longest key ending in `/` that starts it, its address with the rest of the specifier
 * resolved against it; null when none maps it, or when the rest would climb out of the address (a
 * browser refuses that: "backtracking"). `specifier` is the URL a URL-like one names (`asUrl`, which
 * a prefix maps only for a special scheme), else the bare specifier as written.
 */
export function mapSpecifier(specifier: string, imports: ReadonlyMap<string, string>, asUrl: string | null = null): string | null {
  const exact = imports.get(specifier);
  if (exact !== undefined) return exact;
  if (asUrl !== null && !SPECIAL_SCHEME.test(asUrl)) return null;
  let best: string | null = null;
  for (const key of imports.keys()) {
    if (key.endsWith('/') && specifier.startsWith(key) && imports.get(key)!.endsWith('/') && (best === null || key.length > best.length)) best = key;
  }
  if (best === null) return null;
  const address = imports.get(best)!;
  const url = absolute(specifier.slice(best.length), address);
  return url !== null && url.startsWith(address) ? url : null;
}

/**
 * The links of a module's imports, resolved against `baseUrl` (the module's URL; an inline
 * module's, its document's base URL); all are requisites (the module needs them to run), with
 * `source` `${sourcePrefix}@import`. Each specifier resolves through the import map of the document
 * whose graph the module is in (resolveModuleSpecifier, `baseUrl` as the referrer), a URL-like one
 * as the URL it names: `importMap` gives it, or a function asked for it at the module's first import
 * (null: none). A bare specifier no map names is left out.
 */
export function extractModuleLinks(
  source: string,
  baseUrl: string,
  opts: { sourcePrefix?: string; queryHandling?: QueryHandling; maxChars?: number; importMap?: ResolvedImportMap | (() => ResolvedImportMap | null) } = {},
): ExtractedLink[] {
  const links: ExtractedLink[] = [];
  let map: ResolvedImportMap | null | undefined = typeof opts.importMap === 'function' ? undefined : (opts.importMap ?? null);
  const mapped = (specifier: string): string | null => {
    if (map === undefined) map = (opts.importMap as () => ResolvedImportMap | null)();
    return resolveModuleSpecifier(specifier, map, baseUrl);
  };
  for (const specifier of moduleSpecifiers(source, { maxChars: opts.maxChars })) {
    const address = mapped(specifier);
    const url = address === null ? null : canonicalize(address, baseUrl, opts);
    if (url) links.push({ url, kind: 'requisite', source: `${opts.sourcePrefix ?? 'module'}@import`, anchorText: '', context: '' });
  }
  return links;
}
