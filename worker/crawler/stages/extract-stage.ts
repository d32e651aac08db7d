import { bodyForParsing, DecompressionBombError } from '../../fetch';
import { errorPageRenders, extractFromResponseYielding, JAVASCRIPT_TYPES, pageLinkSettingsOf } from '../../extract';
import { MANIFEST_KIND, queryEncodingOf } from '../../url';
import { outLinksOf } from '../plan-out-links';
import { addNote, PROCEED, type Stage } from '../stage';
import { storedBodySize } from '../../capture';

/** A page's title is kept to this many characters: enough to read in a list, bounded for hostile pages. */
const TITLE_MAX = 300;

/** The title a capture row keeps of an extraction: an HTML page's, at most TITLE_MAX characters; else none. */
export function captureTitle(result: { kind: string; title?: string | null }): string | undefined {
  return result.kind === 'html' && result.title ? result.title.slice(0, TITLE_MAX) : undefined;
}

/** Formats we parse for links (and JAVASCRIPT_TYPES, for a module's imports); everything else is archived without looking inside. */
const PARSEABLE = /^(text\/html|text\/css|image\/svg\+xml|(application|text)\/([\w.+-]*\+)?xml|application\/(feed\+|manifest\+)?json|text\/plain)\b/;

/** Out-links (with anchor text and context), title and text from the response. */
export const extractStage: Stage = {
  name: 'extract',
  cpuTurn: true,
  shouldProcess: (item) => Boolean(item.exchange),
  async process(item, ctx) {
    const ex = item.exchange!;
    const contentType = (ex.headers['content-type'] ?? '').toLowerCase();
    const isRedirect = ex.status >= 300 && ex.status < 400;
    // A URL named as a sitemap is looked into whatever its type (a gzipped one is often application/gzip).
    const declaredSitemap = item.lease?.kind === 'sitemap';
    // So is one a page linked as its web app manifest (a .webmanifest is often application/octet-stream).
    const declaredManifest = item.lease?.kind === MANIFEST_KIND;
    const isSitemapOrRobots = declaredSitemap || /\/robots\.txt$|sitemap/i.test(item.url);
    const parseable = PARSEABLE.test(contentType) || JAVASCRIPT_TYPES.test(contentType.split(';', 1)[0].trim());
    // A custom 404 or 503 page: a browser shows it, and its replay should look the same.
    const errorPage = errorPageRenders(ex.status, contentType, storedBodySize(ex.body));
    if (!errorPage && !isRedirect && !(ex.status >= 200 && ex.status < 300 && (parseable || isSitemapOrRobots || declaredManifest || !contentType))) return PROCEED;
    let body = Buffer.alloc(0);
    let cut = ex.truncated !== null;
    if (!isRedirect) {
      try {
        let note: string | undefined;
        ({ body, cut, note } = await bodyForParsing(ex, ctx.icd.limits.maxDecodedBytes));
        if (note) addNote(item, note);
      } catch (err) {
        if (err instanceof DecompressionBombError) {
          item.failure = { reason: 'decompression-bomb', message: err.message };
          return PROCEED; // the response is still archived as received
        }
        throw err;
      }
    }
    // A large sitemap is parsed in slices, the crawl's other pages and timers going on between them.
    const result = await extractFromResponseYielding({
      url: item.url, status: ex.status, headers: ex.headers, body, truncated: cut,
      maxDecodedBytes: ctx.icd.limits.maxDecodedBytes, ...pageLinkSettingsOf(ctx.icd.scope), references: ctx.references, declaredSitemap, declaredManifest,
      importMap: () => ctx.importMapOf(item.lease),
      // Only focused analysis reads texts, anchors and contexts, and it reads them from the page itself.
      text: false,
    });
    if (result.failure) item.failure = { reason: result.failure.reason, message: result.failure.message };
    // Before its modules are fetched (its links are committed after this), and kept for a resumed crawl.
    if (result.importMap) ctx.importMaps.keep(item.url, result.importMap);
    if (errorPage) {
      // Its links are not followed, but what a browser showing it loads is captured: its images,
      // stylesheets, scripts and frames, and its origin's icon.
      const { links, note } = outLinksOf({ kind: result.kind, links: result.links.filter((l) => l.kind === 'requisite') }, ctx.icd.scope.maxOutLinksPerPage);
      const favicon = ctx.faviconOf(item);
      if (favicon) links.push(favicon);
      item.links = links;
      if (note) addNote(item, note);
      return PROCEED;
    }
    const { links, note } = outLinksOf(result, ctx.icd.scope.maxOutLinksPerPage);
    const favicon = result.kind === 'html' ? ctx.faviconOf(item) : null;
    if (favicon) links.push(favicon);
    item.links = links;
    if (note) addNote(item, note);
    if (result.unfollowedRedirect) addNote(item, result.unfollowedRedirect);
    if (ctx.focus && result.kind === 'html') {
      item.htmlText = result.htmlText;
      item.resolved = result.resolved;
      item.queryEncoding = queryEncodingOf(result.charset);
    }
    const title = captureTitle(result);
    if (title) item.title = title;
    item.html = result.kind === 'html' ? body : undefined;
    item.markup = result.markup;
    return PROCEED;
  },
};
