/**
 * Incremental recrawling (after Bouras et al.): each page carries a revisit frequency fr in
 * [1, frMax]; a page is refetched in recrawl round r when the rounds since its last fetch reach
 * frMax / fr. A change raises fr (revisit sooner), no change lowers it, so stable pages are
 * fetched less and less often. The selective-incremental rule refetches a parent that is not due
 * when enough of its children changed, with a threshold that adapts to whether that paid off.
 */

export interface RevisitState {
  fr: number;
  /** Round of the last fetch. */
  lastRound: number;
}

export interface RevisitPolicy {
  frMax: number;
}

export const DEFAULT_REVISIT_POLICY: RevisitPolicy = { frMax: 4 };

/** A new page: revisited every round until it shows it is stable. */
export function initialRevisitState(round: number, policy = DEFAULT_REVISIT_POLICY): RevisitState {
  return { fr: policy.frMax, lastRound: round };
}

/** Rounds between fetches for a frequency: frMax / fr, rounded up. */
export function revisitPeriodRounds(state: RevisitState, policy = DEFAULT_REVISIT_POLICY): number {
  return Math.ceil(policy.frMax / state.fr);
}

/** Whether the page is due in `round`. */
export function isDue(state: RevisitState, round: number, policy = DEFAULT_REVISIT_POLICY): boolean {
  return round - state.lastRound >= revisitPeriodRounds(state, policy);
}

/** The state after a fetch in `round` that did or did not find a change. */
export function afterFetch(state: RevisitState, round: number, changed: boolean, policy = DEFAULT_REVISIT_POLICY): RevisitState {
  const fr = changed ? Math.min(policy.frMax, state.fr * 2) : Math.max(1, state.fr / 2);
  return { fr, lastRound: round };
}

export interface ParentRuleState {
  /** Share of changed children above which an unchanged parent is refetched. */
  threshold: number;
}

export const DEFAULT_PARENT_RULE: ParentRuleState = { threshold: 0.5 };

/** Whether to refetch a parent that is not due, given its children's latest outcomes. */
export function shouldRecrawlParent(rule: ParentRuleState, childrenChanged: number, childrenTotal: number): boolean {
  return childrenTotal > 0 && childrenChanged / childrenTotal > rule.threshold;
}

/**
 * Adapts the threshold after a parent refetched by the rule: lower it when the parent had in fact
 * changed (the rule paid off), raise it when it had not (a wasted fetch). Bounded to [0.05, 0.95].
 */
export function adaptParentRule(rule: ParentRuleState, parentChanged: boolean, step = 0.1): ParentRuleState {
  const threshold = parentChanged ? rule.threshold - step : rule.threshold + step;
  return { threshold: Math.min(0.95, Math.max(0.05, threshold)) };
}
