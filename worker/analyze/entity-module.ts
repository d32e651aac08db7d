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

/** Compiles one case-insensitive whole-word pattern per entity (name and aliases). */
export function compileEntities(entities: readonly EntityDefinition[]): EntityMatcher {
  const compiled = entities.map((e) => {
    const names = [e.name, ...(e.aliases ?? [])].map((n) => n.normalize('NFKC').trim()).filter(Boolean);
    const alternatives = names.map((n) => escapeRegExp(n).replace(/\s+/g, '\\s+')).join('|');
    return { name: e.name, re: new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives})(?![\\p{L}\\p{N}])`, 'iu') };
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
