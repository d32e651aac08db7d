import { plainIssueMessage } from '../../worker/icd/plain-issues';
import { topicTermWeightSchema, type IcdInput } from '../../worker/icd/schema';

/**
 * The topic terms of the term review, pure: the list shown (strongest first) ⇄ the ICD's
 * `focus.topicTerms` record, and the edits made to that list.
 */

/** A topic term and its weight, as the term review lists it. */
export interface Term {
  term: string;
  weight: number;
}

/** An ICD's reviewed topic vector: term → weight (`focus.topicTerms`). */
export type TopicTerms = Record<string, number>;

/** `list` strongest first (a copy). */
export const strongestFirst = (list: readonly Term[]): Term[] => [...list].sort((a, b) => b.weight - a.weight);

/** The terms of `record`, strongest first (none when there is no record). */
export function termsFromRecord(record: TopicTerms | undefined): Term[] {
  return strongestFirst(Object.entries(record ?? {}).map(([term, weight]) => ({ term, weight })));
}

/** The record stored for `terms`. */
export function recordFromTerms(terms: readonly Term[]): TopicTerms {
  return Object.fromEntries(terms.map((t) => [t.term, t.weight]));
}

/** True when `terms` holds exactly the terms and weights of `record` (order aside). */
export function sameTerms(terms: readonly Term[], record: TopicTerms | undefined): boolean {
  const stored = record ?? {};
  return terms.length === Object.keys(stored).length && terms.every((t) => Object.hasOwn(stored, t.term) && stored[t.term] === t.weight);
}

/** `icd` with `topicTerms` as its topic vector; everything else as it is. */
export function withTopicTerms(icd: IcdInput, topicTerms: TopicTerms): IcdInput {
  return { ...icd, focus: { ...icd.focus, topicTerms } };
}

/** `terms` with `stems` (the stems of a typed term) added at `weight`, replacing those already there. */
export function withAddedStems(terms: readonly Term[], stems: readonly string[], weight: number): Term[] {
  return strongestFirst([...terms.filter((t) => !stems.includes(t.term)), ...stems.map((term) => ({ term, weight }))]);
}

/** `terms` without `term`. */
export function withoutTerm(terms: readonly Term[], term: string): Term[] {
  return terms.filter((t) => t.term !== term);
}

/**
 * The weight typed in the term review's add box: the number, or the message shown by the field.
 * It is checked with the schema the server saves topic terms by, so the archivist learns of a
 * weight it refuses (above MAX_TOPIC_TERM_WEIGHT, not a number) before adding the term, not from
 * the save. An empty box is refused rather than read as 0, as Number('') would.
 */
export function typedTermWeight(typed: string): { weight: number } | { error: string } {
  const text = typed.trim();
  if (text === '') return { error: 'Required' };
  const result = topicTermWeightSchema.safeParse(Number(text), { error: plainIssueMessage });
  return result.success ? { weight: result.data } : { error: result.error.issues[0]?.message ?? 'Not a weight the server accepts' };
}
