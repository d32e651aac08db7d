/** The words adaptation draws from, taken once from the knowledge base. */
import type { Application, KnowledgeBase } from './kb-types';
import type { Vocabulary } from './relaxation';
import { literalTokens, nameTests } from './xpath-rewrite';

/** Per category: element names of the whole knowledge base, class/id tokens of the category's applications. */
export function buildVocabularies(kb: KnowledgeBase): Map<string, Vocabulary> {
  const expressionsOfApp = (app: Application): string[] => [
    ...app.detection.signals.flatMap((s) => (s.kind === 'xpath' ? [s.expression] : [])),
    ...[app, ...app.levels].flatMap((l) => [
      ...l.navigate.map((n) => n.select),
      ...l.extract.flatMap((e) => [e.select, ...e.fields.map((f) => f.select)]),
    ]),
    ...app.levels.flatMap((l) => l.detect.flatMap((s) => (s.kind === 'xpath' ? [s.expression] : []))),
  ];
  const kbTags = [...new Set(kb.applications.flatMap(expressionsOfApp).flatMap(nameTests))];
  // A field's first element is what carries it (`.//h2/a`: the heading), so those come first.
  const primary: Record<string, string[]> = {};
  const secondary: Record<string, string[]> = {};
  for (const app of kb.applications) {
    for (const e of [...app.extract, ...app.levels.flatMap((l) => l.extract)]) {
      for (const f of e.fields) {
        const names = nameTests(f.select).filter((t) => t !== 'html' && t !== 'body');
        (primary[f.name] ??= []).push(...names.slice(0, 1));
        (secondary[f.name] ??= []).push(...names.slice(1));
      }
    }
  }
  const fieldTags: Record<string, string[]> = {};
  for (const name of Object.keys(primary)) fieldTags[name] = [...new Set([...primary[name], ...secondary[name]])];
  const out = new Map<string, Vocabulary>();
  for (const category of new Set(kb.applications.map((a) => a.category))) {
    const values = kb.applications.filter((a) => a.category === category).flatMap(expressionsOfApp).flatMap(literalTokens);
    out.set(category, { kbTags, categoryValues: [...new Set(values)], fieldTags });
  }
  return out;
}
