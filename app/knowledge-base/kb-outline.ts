/** One rule of the knowledge base as the outline lists it, with the line it starts on. */
export interface OutlineEntry {
  line: number;
  /** 1-based column of the tag's `<`: with the line, tells apart identical rules written on one line. */
  column: number;
  depth: 0 | 1 | 2;
  kind: 'application' | 'level' | 'detect' | 'navigate' | 'extract';
  label: string;
}

const attr = (tag: string, name: string) => new RegExp(`\\b${name}\\s*=\\s*"([^"]*)"|\\b${name}\\s*=\\s*'([^']*)'`).exec(tag)?.slice(1).find((v) => v !== undefined);

/**
 * The applications, page levels and actions of a knowledge base, by line: a scan of the text
 * (not a parse), so it works while the XML is being edited and broken.
 */
export function outlineKnowledgeBase(xml: string): OutlineEntry[] {
  const out: OutlineEntry[] = [];
  let inLevel = false;
  xml.split('\n').forEach((text, i) => {
    const line = i + 1;
    for (const m of text.matchAll(/<(\/?)(application|level|navigate|extract)\b([^>]*)>?/g)) {
      const [, closing, tag, rest = ''] = m;
      const column = m.index + 1;
      if (closing) {
        if (tag === 'level') inLevel = false;
        continue;
      }
      if (tag === 'application') {
        inLevel = false;
        out.push({ line, column, depth: 0, kind: 'application', label: `${attr(rest, 'name') ?? attr(rest, 'id') ?? '?'} (${attr(rest, 'category') ?? '–'})` });
      } else if (tag === 'level') {
        inLevel = !/\/\s*>?\s*$/.test(rest);
        out.push({ line, column, depth: 1, kind: 'level', label: `${attr(rest, 'type') ?? '?'} pages` });
      } else if (tag === 'navigate') {
        const follow = attr(rest, 'follow') === 'false' ? 'do not follow' : 'follow';
        out.push({ line, column, depth: inLevel ? 2 : 1, kind: 'navigate', label: `${attr(rest, 'id') ?? '?'} — ${follow}` });
      } else {
        out.push({ line, column, depth: inLevel ? 2 : 1, kind: 'extract', label: `${attr(rest, 'id') ?? '?'} — extracts ${attr(rest, 'type') ?? '?'}` });
      }
    }
  });
  return out;
}

/** A key for an outline entry, unique within one outline (two identical rules on one line differ by column). */
export function outlineEntryKey(entry: OutlineEntry): string {
  return `${entry.line}:${entry.column}`;
}
