import { boundedParser } from './bounded-parser';
import { canonicalize } from '../url';
import { decodeText } from './charset';

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
}

const DATE_FIELDS: Record<string, number> = { pubdate: 2, published: 2, issued: 2, 'dc:date': 1, updated: 0, modified: 0 };

/** Whether a body looks like a JSON Feed (https://jsonfeed.org). */
export function looksLikeJsonFeed(text: string): boolean {
  return text.trimStart().startsWith('{') && /"version"\s*:\s*"https?:\/\/jsonfeed\.org/.test(text.slice(0, 2048));
}

/**
 * Items of an RSS (0.9x, 1.0, 2.0), Atom or JSON Feed document, with links resolved against the
 * feed's URL. Items without a usable http(s) link are left out. Never throws.
 */
export function parseFeed(bytes: Uint8Array, contentType: string | null | undefined, url: string): FeedResult {
  const text = decodeText(bytes, contentType);
  if (/json/i.test(contentType ?? '') || looksLikeJsonFeed(text)) return parseJsonFeed(text, url);
  return parseXmlFeed(text, url);
}

function parseJsonFeed(text: string, base: string): FeedResult {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { title: '', items: [] };
  }
  const feed = (doc && typeof doc === 'object' ? doc : {}) as Record<string, unknown>;
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
  title?: string;
  date?: string;
  dateRank: number;
  id?: string;
  hrefSeen?: boolean;
}

function parseXmlFeed(xml: string, base: string): FeedResult {
  const result: FeedResult = { title: '', items: [] };
  let item: Draft | null = null;
  let depth = 0;
  let channelTitleDepth = -1;
  let field: string | null = null;
  let value = '';
  /** The whole text is parsed; what closes now is closed by the end of the input, not by its tag. */
  let ending = false;
  const parser = boundedParser(
    {
      onopentag(rawName, attribs) {
        depth++;
        const name = rawName.toLowerCase();
        if (name === 'item' || name === 'entry') {
          item = { dateRank: -1, link: attribs['rdf:about'] };
          if (item.link) item.id = item.link;
          return;
        }
        if (item && name === 'link' && attribs.href !== undefined) {
          // Atom: the first alternate (or rel-less) link is the item's page.
          const rel = (attribs.rel ?? 'alternate').toLowerCase();
          if (rel === 'alternate' && !item.hrefSeen) {
            item.link = attribs.href;
            item.hrefSeen = true;
          }
          return;
        }
        if (item && (name === 'title' || name === 'link' || name === 'guid' || name === 'id' || name in DATE_FIELDS)) {
          field = name;
          value = '';
        } else if (!item && name === 'title' && !result.title && channelTitleDepth < 0 && depth <= 3) {
          field = 'feed-title';
          channelTitleDepth = depth;
          value = '';
        }
      },
      ontext(data) {
        if (field) value += data;
      },
      onclosetag(rawName) {
        depth--;
        const name = rawName.toLowerCase();
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
          else if (name === 'link' && v && !item.link) item.link = v;
          else if ((name === 'guid' || name === 'id') && v) {
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
          const url = link ? canonicalize(link, base) : null;
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
  return result;
}
