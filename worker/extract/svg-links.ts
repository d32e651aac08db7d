import { boundedParser } from './bounded-parser';
import { canonicalize, type QueryHandling } from '../url';
import { extractCssLinks } from './css-links';
import { dedupeLinks } from './html-links';
import type { ExtractedLink, LinkKind } from './types';
import { XmlScopes } from './xml-scopes';

/** SVG elements whose `href` (else `xlink:href`) names something, and what kind of link it is. */
const HREF_KINDS: ReadonlyMap<string, LinkKind> = new Map([
  ['image', 'requisite'],
  ['use', 'requisite'],
  ['feImage', 'requisite'],
  ['script', 'requisite'],
  ['a', 'navigation'],
]);

/** `href="…"` (or '…') among an `<?xml-stylesheet …?>` instruction's pseudo-attributes. */
const STYLESHEET_HREF = /(?:^|\s)href\s*=\s*(?:"([^"]*)"|'([^']*)')/;

/**
 * The links of an SVG document (served as `image/svg+xml`, whether a page shows it through
 * `<img>`, `<object>` or `<embed>`): `href` or `xlink:href` of `<image>`, `<use>`, `<feImage>` and
 * `<script>` (requisites) and of `<a>` (navigation links), `<?xml-stylesheet href>`, and the url()
 * and @import of `<style>` blocks and `style` attributes. References resolve against the document's
 * URL, or the xml:base in scope. Read as XML (htmlparser2's XML mode, open elements bounded as
 * every parse is): only the predefined and numeric character references are decoded, a DOCTYPE's
 * entities never. Element names are matched without their prefix (`<svg:image>`). Never throws.
 */
export function extractSvgLinks(xml: string, url: string, opts: { queryHandling?: QueryHandling } = {}): ExtractedLink[] {
  const links: ExtractedLink[] = [];
  const scopes = new XmlScopes(url);
  const add = (raw: string | undefined, kind: LinkKind, source: string) => {
    const trimmed = raw?.trim();
    // A fragment alone names a part of this document (`<use href="#icon">`).
    if (!trimmed || trimmed.startsWith('#')) return;
    const resolved = canonicalize(trimmed, scopes.base, opts);
    if (resolved) links.push({ url: resolved, kind, source, anchorText: '', context: '' });
  };
  let styleText: string | null = null;
  let styleDepth = 0;
  const parser = boundedParser(
    {
      onprocessinginstruction(name, data) {
        if (name.toLowerCase() !== '?xml-stylesheet') return;
        const href = STYLESHEET_HREF.exec(data.slice(name.length, data.endsWith('?') ? -1 : undefined));
        if (href) add(href[1] ?? href[2], 'requisite', 'xml-stylesheet@href');
      },
      onopentag(rawName, attribs) {
        scopes.enter(attribs);
        const name = rawName.slice(rawName.indexOf(':') + 1);
        if (attribs.style) for (const l of extractCssLinks(attribs.style, scopes.base, opts)) links.push({ ...l, source: `${name}@style` });
        const kind = HREF_KINDS.get(name);
        // SVG 2: href wins over the older xlink:href.
        if (kind) {
          const attr = attribs.href === undefined ? 'xlink:href' : 'href';
          add(attribs[attr], kind, `${name}@${attr}`);
        }
        if (name === 'style' && styleText === null) {
          styleText = '';
          styleDepth = scopes.depth;
        }
      },
      ontext(data) {
        // CDATA sections come as text too: <style><![CDATA[…]]></style> is the usual form.
        if (styleText !== null) styleText += data;
      },
      onclosetag() {
        if (styleText !== null && scopes.depth === styleDepth) {
          for (const l of extractCssLinks(styleText, scopes.base, { ...opts, sourcePrefix: 'style' })) links.push(l);
          styleText = null;
        }
        scopes.leave();
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(xml);
  return dedupeLinks(links);
}
