/**
 * Extract stage (pure): links with anchor text and context from HTML, CSS, SVG, web app
 * manifests, sitemaps, feeds and robots.txt, and the imports of ES modules; charset sniffing and
 * decoding. Input is bytes and headers, output plain data.
 */
export type { ExtractedLink, LinkKind, MetaRobots } from './types';
export { charsetParam, decodeText, encodingForLabel, sniffCharset } from './charset';
export { cssReferences, extractCssLinks, unescapeCss, type CssReference } from './css-links';
export { parseSrcset } from './srcset';
export { extractSvgLinks } from './svg-links';
export { extractManifestLinks } from './manifest';
export { errorPageRenders, faviconLink, FAVICON_SOURCE } from './favicon';
export { addImportMap, emptyImportMap, extractModuleLinks, isUrlLike, mapSpecifier, moduleSpecifiers, parseImportMap, resolveModuleSpecifier, MAX_MODULE_SPECIFIERS, type ImportMap, type ResolvedImportMap } from './module-imports';
export { dedupeLinks, extractHtml, pageLinkSettingsOf, type HtmlExtractOptions, type HtmlExtraction, type MarkupSummary, type PageLinkSettings } from './html-links';
export { gunzipCapped, isGzip, parseSitemap, parseSitemapYielding, robotsSitemaps, SITEMAP_SLICE_CHARS, SitemapTooLargeError, type Gunzipped, type SitemapEntry, type SitemapOptions, type SitemapResult } from './sitemap';
export { isFeedDocument, looksLikeJsonFeed, parseFeed, type FeedItem, type FeedResult } from './feed';
export { parseDateAsUtc } from './utc-date';
export { unexpandedDtd, unexpandedDtdNote, type UnexpandedDtd } from './doctype-entities';
export { classifyResponse, JAVASCRIPT_TYPES, extractFromResponse, isImportSource, extractFromResponseYielding, type ResponseExtraction, type ResponseInput, type ResponseKind } from './extract-response';
