'use client';
import { useMemo, useState } from 'react';
import { useLeaveGuard } from '../lib/client/leave-guard';
import { sameTerms, termsFromRecord, type Term, type TopicTerms } from './topic-terms';

/**
 * The term review's list of topic terms and whether it differs from the stored one. It lives in
 * the ICD editor rather than in the term review because the form's start button saves it too:
 * starting a crawl used to drop unsaved term edits without a word.
 */
export interface TopicTermEdits {
  /** The terms shown: the edited list, or the stored one when nothing was edited. */
  terms: Term[];
  /** The terms shown differ from the stored ones (a leave guard holds meanwhile). */
  unsaved: boolean;
  /** Edits the list shown (`change` gets the current list). */
  edit(change: (terms: Term[]) => Term[]): void;
  /** Drops the edits: the stored terms show again. */
  discard(): void;
}

/**
 * Topic-term edits over `stored` (the ICD's saved `focus.topicTerms`). Unsaved is derived, not a
 * flag set by whoever saves: whichever save stores the terms shown (the term review's own button
 * or the start button) ends it, and a save of the form alone leaves it.
 */
export function useTopicTermEdits(stored: TopicTerms | undefined): TopicTermEdits {
  const [edited, setEdited] = useState<Term[] | null>(null);
  // Once the stored terms are the edited ones, the edit is over: later changes to the stored
  // terms show again. Adjusted while rendering, as React documents for state that follows a prop.
  const [seen, setSeen] = useState(stored);
  if (seen !== stored) {
    setSeen(stored);
    if (edited && sameTerms(edited, stored)) setEdited(null);
  }
  const storedTerms = useMemo(() => termsFromRecord(stored), [stored]);
  const unsaved = edited !== null && !sameTerms(edited, stored);
  useLeaveGuard(unsaved);
  return {
    terms: edited ?? storedTerms,
    unsaved,
    edit: (change) => setEdited((list) => change(list ?? storedTerms)),
    discard: () => setEdited(null),
  };
}
