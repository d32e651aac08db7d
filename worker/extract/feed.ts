import { boundedParser } from './bounded-parser';
import { canonicalize } from '../url';
import { decodeText } from './charset';
import { unexpandedDtd, type UnexpandedDtd } from './doctype-entities';
import { firstElementName } from './first-element';
import { XmlScopes } from './xml-scopes';
import { jsonObjectOf } from './json-object';

/** One item (RSS) or entry (Atom, JSON Feed) of a feed. */
export interface FeedItem {
  url: string;
  title: string;
  /** Publication (else update) date as written in the feed. */
  published?: string;
  id?: string;
}

export interface FeedResult {
  title: string;
  items: FeedItem[];
  /** An XML feed's DOCTYPE declared entities or named an external DTD, none of them expanded nor fetched (unexpandedDtd). */
  unexpandedDtd?: UnexpandedDtd;
}

const DATE_FIELDS: Record<string, number> = { pubdate: 2, published: 2, issued: 2, 'dc:date': 1, updated: 0, modified: 0 };

/** Whether a body looks like a JSON Feed (https://jsonfeed.org). */
export function looksLikeJsonFeed(text: string): boolean {
  return text.trimStart().startsWith('{') && /"version"\s*:\s*"https?:\/\/jsonfeed\.org/.test(text.slice(0, 2048));
}

/**
 * Whether a body is a feed document at all (an empty one included): a JSON Feed, or XML whose root
 * element is `rss`, `feed` (Atom) or `RDF` (RSS 1.0, 0.90), under any prefix. An HTML page, say, is
 * not: a feed URL answering one lists nothing because there is no feed, not because none was posted. Pure.
 */
export function isFeedDocument(bytes: Uint8Array, contentType: string | null | undefined): boolean {
  const text = decodeText(bytes.subarray(0, 64 * 1024), contentType);
  if (looksLikeJsonFeed(text)) return true;
  // Read as JSON Feed by parseFeed too: a JSON object under a JSON type, or one with an items array.
  if (text.trimStart().startsWith('{') && (/json/i.test(contentType ?? '') || /"items"\s*:\s*\[/.test(text))) return true;
  // The root element (decodeText has dropped a BOM).
  const root = firstElementName(text);
  return root !== null && /^(?:[\w.-]+:)?(?:rss|feed|RDF)$/i.test(root);
}

/**
 * Items of an RSS (0.9x, 1.0, 2.0), Atom or JSON Feed document, with links resolved against the
 * feed's URL, or in XML against the xml:base in scope. Atom and RSS 1.0 elements are known by their
 * namespace, under any prefix. Items without a usable http(s) link are left out. Only XML's
 * predefined entities and character references are decoded: a DOCTYPE's entities stay as written
 * and no external DTD is fetched, the result saying when it had any (unexpandedDtd). Never throws.
 */
export function parseFeed(bytes: Uint8Array, contentType: string | null | undefined, url: string): FeedResult {
  const text = decodeText(bytes, contentType);
  if (/json/i.test(contentType ?? '') || looksLikeJsonFeed(text)) return parseJsonFeed(text, url);
  return parseXmlFeed(text, url);
}

function parseJsonFeed(text: string, base: string): FeedResult {
  const feed = jsonObjectOf(text);
  if (!feed) return { title: '', items: [] };
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const items: FeedItem[] = [];
  for (const raw of Array.isArray(feed.items) ? feed.items : []) {
    if (!raw || typeof raw !== 'object') continue;
    const it = raw as Record<string, unknown>;
    const link = str(it.url) ?? str(it.external_url);
    const resolved = link ? canonicalize(link, base) : null;
    if (!resolved) continue;
    const item: FeedItem = { url: resolved, title: str(it.title) ?? '' };
    const published = str(it.date_published) ?? str(it.date_modified);
    if (published) item.published = published;
    if (it.id !== undefined && it.id !== null) item.id = String(it.id);
    items.push(item);
  }
  return { title: str(feed.title) ?? '', items };
}

interface Draft {
  link?: string;
  /** The base URI the link resolves against: that of the element it was read from (xml:base). */
  linkBase: string;
  title?: string;
  date?: string;
  dateRank: number;
  id?: string;
  hrefSeen?: boolean;
}

/**
 * Namespaces whose elements are read by their local names, whatever prefix the document binds to
 * them (`<a:entry xmlns:a="http://www.w3.org/2005/Atom">`): Atom 1.0 and 0.3, RSS 1.0 and 0.90.
 */
const FEED_NAMESPACES = new Set(['http://www.w3.org/2005/Atom', 'http://purl.org/atom/ns#', 'http://purl.org/rss/1.0/', 'http://my.netscape.com/rdf/simple/0.9/']);

/**
 * The name the parser knows an element by: lower-cased, and without its prefix when the prefix is
 * bound to a feed namespace (FEED_NAMESPACES). Unprefixed names are taken as written, whatever the
 * default namespace (RSS 2.0 has none, and a misspelt Atom namespace should not lose the feed); so
 * are names with another prefix (`dc:date`, declared or not), so an `<media:title>` is no title.
 */
function feedName(rawName: string, scopes: XmlScopes): string {
  const colon = rawName.indexOf(':');
  const namespace = colon > 0 ? scopes.namespaceOf(rawName.slice(0, colon)) : undefined;
  return (namespace !== undefined && FEED_NAMESPACES.has(namespace) ? rawName.slice(colon + 1) : rawName).toLowerCase();
}

function parseXmlFeed(xml: string, url: string): FeedResult {
  const result: FeedResult = { title: '', items: [] };
  let item: Draft | null = null;
  const scopes = new XmlScopes(url);
  let channelTitleDepth = -1;
  /** Depth of an entry's open <source> (Atom §4.2.11: the feed it was copied from), -1 outside one: its id, link, title and dates are that feed's. */
  let sourceDepth = -1;
  let field: string | null = null;
  let value = '';
  /** The whole text is parsed; what closes now is closed by the end of the input, not by its tag. */
  let ending = false;
  const parser = boundedParser(
    {
      onopentag(rawName, attribs) {
        scopes.enter(attribs);
        const name = feedName(rawName, scopes);
        if (name === 'item' || name === 'entry') {
          item = { dateRank: -1, link: attribs['rdf:about'], linkBase: scopes.base };
          if (item.link) item.id = item.link;
          return;
        }
        if (item && sourceDepth < 0 && name === 'source') sourceDepth = scopes.depth;
        if (sourceDepth >= 0) return;
        if (item && name === 'link' && attribs.href !== undefined) {
          // Atom: the first alternate (or rel-less) link is the item's page.
          const rel = (attribs.rel ?? 'alternate').toLowerCase();
          if (rel === 'alternate' && !item.hrefSeen) {
            item.link = attribs.href;
            item.linkBase = scopes.base;
            item.hrefSeen = true;
          }
          return;
        }
        if (item && (name === 'title' || name === 'link' || name === 'guid' || name === 'id' || name in DATE_FIELDS)) {
          field = name;
          value = '';
        } else if (!item && name === 'title' && !result.title && channelTitleDepth < 0 && scopes.depth <= 3) {
          field = 'feed-title';
          channelTitleDepth = scopes.depth;
          value = '';
        }
      },
      ontext(data) {
        if (field) value += data;
      },
      onclosetag(rawName) {
        // Every element the parser opened is closed, by its tag, implied or at the end of the input.
        const name = feedName(rawName, scopes);
        const base = scopes.base;
        const depth = scopes.depth;
        scopes.leave();
        if (sourceDepth >= 0) {
          if (depth === sourceDepth) sourceDepth = -1;
          return;
        }
        // A value closed only by the end of the document was cut with it: a body cut at the size
        // cap, the total timeout or a reset, or a feed whose generator stopped mid-write, and
        // `http://example.org/posts/long-ti` is no article. As in sitemaps, it is left out; an
        // item whose link closed before the cut is kept.
        if (field === 'feed-title' && name === 'title') {
          if (!ending) result.title = value.replace(/\s+/g, ' ').trim();
          field = null;
          return;
        }
        if (item && field === name) {
          const v = ending ? '' : value.trim();
          if (name === 'title' && item.title === undefined) item.title = v.replace(/\s+/g, ' ');
          else if (name === 'link' && v && !item.link) {
            item.link = v;
            item.linkBase = base;
          } else if ((name === 'guid' || name === 'id') && v) {
            item.id = v;
          } else if (name in DATE_FIELDS && v && DATE_FIELDS[name] > item.dateRank) {
            item.date = v;
            item.dateRank = DATE_FIELDS[name];
          }
          field = null;
          return;
        }
        if ((name === 'item' || name === 'entry') && item) {
          // RSS items may carry only a permalink guid.
          const link = item.link?.trim() || (item.id?.startsWith('http') ? item.id : '');
          const url = link ? canonicalize(link, item.linkBase) : null;
          if (url) {
            const out: FeedItem = { url, title: item.title ?? '' };
            if (item.date) out.published = item.date;
            if (item.id) out.id = item.id;
            result.items.push(out);
          }
          item = null;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  ending = true;
  parser.end();
  const dtd = unexpandedDtd(xml);
  if (dtd) result.unexpandedDtd = dtd;
  return result;
}
