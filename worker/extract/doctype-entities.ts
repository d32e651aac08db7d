/**
 * What an XML document's DOCTYPE asked of a parser that Tidemark does not do. Sitemaps and feeds are
 * read with XML's five predefined entities and character references only: the entities a DOCTYPE
 * declares are never expanded (no billion laughs), and neither an external DTD nor an external
 * entity is fetched (no XXE). A document that relied on them may then give URLs or titles that
 * still hold `&name;`, or lack what the DTD would have brought in; the crawl log says so
 * (unexpandedDtdNote). Pure; linear in the document's length, as a hostile one may be large.
 */

/** A DOCTYPE's entities and external DTD, none of them expanded nor fetched. */
export interface UnexpandedDtd {
  /** Entity declarations (`<!ENTITY`, general and parameter) of the DOCTYPE's internal subset. */
  entities: number;
  /** Of those, the external ones (SYSTEM or PUBLIC): files or URLs that were not read. */
  externalEntities: number;
  /** The external DTD the DOCTYPE names (its system literal, else its public one), not fetched; absent when it names none. */
  externalDtd?: string;
  /** Entity references past the DOCTYPE, other than XML's five and character references: left as written. */
  references: number;
  /** The first few distinct names of those references (REFERENCE_NAMES_KEPT). */
  names: string[];
}

/** Distinct reference names kept for the crawl log. */
const REFERENCE_NAMES_KEPT = 5;
/** A name or a DTD's literal is quoted in the crawl log up to this many characters: a hostile document may write megabytes. */
const SHOWN_CHARS = 100;

const PREDEFINED = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);
/** A general entity reference (XML 1.0 §4.1) at the sticky position. */
const REFERENCE = /&([\p{L}_:][\p{L}\p{N}\p{M}_.:·-]*);/uy;
const DOCTYPE_START = /<!DOCTYPE(?=[\s[>])/iy;
/** The DOCTYPE's name and the keyword of its external id, if any. */
const DOCTYPE_HEAD = /\s*[^\s[>"']*\s*(?:(SYSTEM|PUBLIC)(?=[\s"']))?/iy;
const LITERAL = /"([^"]*)"|'([^']*)'/g;
const ENTITY_DECLARATION = /<!ENTITY\s+(?:%\s+)?[^\s"'>]+\s+(?:(SYSTEM|PUBLIC)(?=[\s"']))?/iy;

/**
 * The entities and external DTD an XML document's DOCTYPE declares, with the references past it
 * that were left as written; null when it has no DOCTYPE, or one that declares no entity and names
 * no external DTD (`<!DOCTYPE rss>`), as nothing it says was left undone.
 */
export function unexpandedDtd(xml: string): UnexpandedDtd | null {
  const start = doctypeStart(xml);
  if (start < 0) return null;
  const head = readDoctypeHead(xml, start);
  const subset = xml.charCodeAt(head.end) === 0x5b /* [ */ ? readInternalSubset(xml, head.end + 1) : { entities: 0, externalEntities: 0, end: head.end };
  if (subset.entities === 0 && head.externalDtd === undefined) return null;
  // The DOCTYPE ends at the first '>' after its internal subset.
  const close = subset.end < 0 ? -1 : xml.indexOf('>', subset.end);
  const refs = close < 0 ? { references: 0, names: [] } : countReferences(xml, close + 1);
  return {
    entities: subset.entities,
    externalEntities: subset.externalEntities,
    ...(head.externalDtd !== undefined ? { externalDtd: head.externalDtd } : {}),
    ...refs,
  };
}

/**
 * The crawl-log note on a sitemap's or feed's unexpanded DOCTYPE: what it declared or named, that
 * none of it was expanded nor fetched, and the references left as written.
 */
export function unexpandedDtdNote(document: string, dtd: UnexpandedDtd): string {
  const declared: string[] = [];
  if (dtd.entities > 0) {
    const external = dtd.externalEntities > 0 ? `, ${dtd.externalEntities} of them external` : '';
    declared.push(`declares ${dtd.entities} ${dtd.entities === 1 ? 'entity' : 'entities'}${external} (not expanded${external ? ' nor fetched' : ''})`);
  }
  if (dtd.externalDtd !== undefined) declared.push(`names the external DTD ${quote(dtd.externalDtd)} (not fetched)`);
  const refs = dtd.references === 0
    ? 'no entity reference in the document'
    : `${dtd.references} entity ${dtd.references === 1 ? 'reference' : 'references'} left as written (${dtd.names.map((n) => `&${shown(n)};`).join(', ')}${dtd.names.length === REFERENCE_NAMES_KEPT ? '…' : ''})`;
  return `the ${document}'s DOCTYPE ${declared.join(' and ')}, as only XML's predefined entities and character references are read: ${refs}`;
}

const shown = (text: string) => (text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text);
const quote = (text: string) => JSON.stringify(shown(text));

/** Where the DOCTYPE starts: after the XML declaration, processing instructions, comments and white space only; else -1. */
function doctypeStart(xml: string): number {
  let at = 0;
  for (;;) {
    while (at < xml.length && /[\s\uFEFF]/.test(xml[at]!)) at++;
    const end = xml.startsWith('<?', at) ? xml.indexOf('?>', at + 2) : xml.startsWith('<!--', at) ? xml.indexOf('-->', at + 4) : null;
    if (end === null) break;
    if (end < 0) return -1;
    at = end + (xml[end] === '?' ? 2 : 3);
  }
  DOCTYPE_START.lastIndex = at;
  return DOCTYPE_START.test(xml) ? at : -1;
}

/**
 * The DOCTYPE's name and external id, up to its internal subset's '[' or its closing '>' (`end`;
 * the document's length when neither comes). `externalDtd` is set when it has an external id.
 */
function readDoctypeHead(xml: string, start: number): { externalDtd?: string; end: number } {
  const from = start + '<!DOCTYPE'.length;
  const end = endOutsideLiterals(xml, from, '[>');
  const head = xml.slice(from, end < 0 ? xml.length : end);
  DOCTYPE_HEAD.lastIndex = 0;
  const keyword = DOCTYPE_HEAD.exec(head)?.[1]?.toUpperCase();
  const literals = [...head.slice(DOCTYPE_HEAD.lastIndex).matchAll(LITERAL)].map((m) => m[1] ?? m[2] ?? '');
  // SYSTEM "system"; PUBLIC "public" "system".
  const externalDtd = keyword === 'SYSTEM' ? (literals[0] ?? '') : keyword === 'PUBLIC' ? (literals[1] ?? literals[0] ?? '') : undefined;
  return { ...(externalDtd !== undefined ? { externalDtd } : {}), end: end < 0 ? xml.length : end };
}

/**
 * The entity declarations of an internal subset starting at `from` (just past its '['), and where
 * it ends (its ']'; -1 when the document ends first). Comments, processing instructions and quoted
 * literals are skipped, so a '>' or ']' inside an entity's value ends nothing.
 */
function readInternalSubset(xml: string, from: number): { entities: number; externalEntities: number; end: number } {
  let entities = 0;
  let externalEntities = 0;
  let at = from;
  while (at < xml.length) {
    const c = xml.charCodeAt(at);
    if (c === 0x5d /* ] */) return { entities, externalEntities, end: at };
    if (c !== 0x3c /* < */) {
      at++;
      continue;
    }
    let end: number;
    if (xml.startsWith('<!--', at)) end = afterOrMinusOne(xml, '-->', at + 4);
    else if (xml.startsWith('<?', at)) end = afterOrMinusOne(xml, '?>', at + 2);
    else if (xml.startsWith('<!', at)) {
      ENTITY_DECLARATION.lastIndex = at;
      const entity = ENTITY_DECLARATION.exec(xml);
      if (entity) {
        entities++;
        if (entity[1]) externalEntities++;
      }
      const gt = endOutsideLiterals(xml, at + 2, '>');
      end = gt < 0 ? -1 : gt + 1;
    } else end = at + 1;
    if (end < 0) break;
    at = end;
  }
  return { entities, externalEntities, end: -1 };
}

/** Index just past `token`'s next occurrence from `from`, or -1. */
function afterOrMinusOne(xml: string, token: string, from: number): number {
  const at = xml.indexOf(token, from);
  return at < 0 ? -1 : at + token.length;
}

/** The first of `stops` from `from` outside quoted literals, or -1 when the document ends first. */
function endOutsideLiterals(xml: string, from: number, stops: string): number {
  for (let at = from; at < xml.length; at++) {
    const ch = xml[at]!;
    if (stops.includes(ch)) return at;
    if (ch === '"' || ch === "'") {
      at = xml.indexOf(ch, at + 1);
      if (at < 0) return -1;
    }
  }
  return -1;
}

/**
 * The entity references from `from` on, other than XML's five and character references, and the
 * first few distinct names: in texts and attribute values, not inside comments or CDATA sections
 * (where `&name;` is text). Each search goes forward only, so a document of many '&' and no
 * comment costs one pass, not one per '&'.
 */
function countReferences(xml: string, from: number): { references: number; names: string[] } {
  let references = 0;
  const names = new Set<string>();
  let amp = xml.indexOf('&', from);
  let markup = xml.indexOf('<!', from);
  while (amp >= 0) {
    if (markup >= 0 && markup < amp) {
      const end = xml.startsWith('<!--', markup) ? afterOrMinusOne(xml, '-->', markup + 4) : xml.startsWith('<![CDATA[', markup) ? afterOrMinusOne(xml, ']]>', markup + 9) : markup + 2;
      if (end < 0) break; // the rest of the document is inside it
      if (amp < end) amp = xml.indexOf('&', end);
      markup = xml.indexOf('<!', end);
      continue;
    }
    REFERENCE.lastIndex = amp;
    const name = REFERENCE.exec(xml)?.[1];
    if (name !== undefined && !PREDEFINED.has(name)) {
      references++;
      if (names.size < REFERENCE_NAMES_KEPT) names.add(name);
    }
    amp = xml.indexOf('&', amp + 1);
  }
  return { references, names: [...names] };
}
