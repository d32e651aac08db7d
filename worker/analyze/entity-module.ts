/**
 * Entity match: the ICD's entities (people, organisations, places, events) by name or alias.
 * A link whose anchor or surrounding paragraph names an entity scores 1; otherwise it inherits
 * half of the document's entity score (the document is about them, the link may be).
 */

/** An entity as in the ICD. */
export interface EntityDefinition {
  name: string;
  aliases?: readonly string[];
}

/** Compiled matcher; `active` is false when the ICD lists no entity. */
export interface EntityMatcher {
  active: boolean;
  /** Names of the entities mentioned in `text` (canonical names, each once). */
  mentioned(text: string): string[];
  /** Document score in [0, 1]: saturates at three distinct entities, one mention counts 0.5. */
  documentScore(text: string): number;
  /** Link score from its anchor + paragraph and the document's score. */
  linkScore(anchorAndContext: string, documentScore: number): number;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// Chinese and Japanese put no space between words: a name written in them is found inside a run of
// letters (東京都 in 東京都知事選挙), and one in another script ends where they begin (IPCCの報告書).
const CJK = '[\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}]';
const CJK_EDGE = new RegExp(CJK, 'u');
/** A letter or digit that continues a word in a script with spaces. */
const WORD_CHAR = `(?:(?!${CJK})[\\p{L}\\p{N}])`;

/** A name as a whole word, spaces in it matching any run of spaces. */
function namePattern(name: string): string {
  const body = escapeRegExp(name).replace(/\s+/g, '\\s+');
  const before = CJK_EDGE.test(name.charAt(0)) ? '' : `(?<!${WORD_CHAR})`;
  const after = CJK_EDGE.test(name.charAt(name.length - 1)) ? '' : `(?!${WORD_CHAR})`;
  return `${before}${body}${after}`;
}

/** Compiles one case-insensitive whole-word pattern per entity (name and aliases). */
export function compileEntities(entities: readonly EntityDefinition[]): EntityMatcher {
  const compiled = entities.map((e) => {
    const names = [e.name, ...(e.aliases ?? [])].map((n) => n.normalize('NFKC').trim()).filter(Boolean);
    const alternatives = names.map(namePattern).join('|');
    return { name: e.name, re: new RegExp(`(?:${alternatives})`, 'iu') };
  });
  function mentioned(text: string): string[] {
    if (!compiled.length) return [];
    const t = text.normalize('NFKC');
    return compiled.filter((c) => c.re.test(t)).map((c) => c.name);
  }
  return {
    active: compiled.length > 0,
    mentioned,
    documentScore(text) {
      const n = mentioned(text).length;
      return n === 0 ? 0 : Math.min(1, 0.5 + (n - 1) * 0.25);
    },
    linkScore(anchorAndContext, documentScore) {
      return mentioned(anchorAndContext).length > 0 ? 1 : documentScore / 2;
    },
  };
}
