/**
 * Adaptation state: relaxed candidates awaiting validation and the adapted rules accepted from
 * them, with provenance. A candidate is accepted only after it works on `validationPages` more
 * pages of its level (pages other than the one it was generated from) on which the original
 * rule still extracts nothing; one failure discards it.
 */
import type { ExtractAction, PageLevel } from './kb-types';
import type { ExtractionExpressions } from './actions';
import type { RelaxedCandidate } from './relaxation';

/** The archivist's decisions on an adapted rule. Pending rules are used until rejected. */
export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected'] as const;

/** Archivist's decision on an adapted rule. */
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** An adapted rule and where it came from. */
export interface AdaptedRule {
  /** `<original rule path>~adapted-<n>`; the `rule` of objects it extracts. */
  id: string;
  applicationId: string;
  level: PageLevel;
  /** Rule path of the original action: `<app>/<level>/<rule id>`. */
  originalRule: string;
  original: { select: string; fields: Record<string, string> };
  adapted: { select: string; fields: Record<string, string> };
  /** Rewrites applied, e.g. `object: 'post' → 'entry'`, `title: h2 → div`. */
  mutations: string[];
  /** Page the candidate was generated on. */
  generatedOn: string;
  /** Further pages it worked on before acceptance. */
  validatedOn: string[];
  /** ISO time of acceptance. */
  acceptedAt: string;
  status: ApprovalStatus;
}

interface Pending extends RelaxedCandidate {
  generatedOn: string;
  validatedOn: string[];
}

/** Per original rule: candidates under validation and accepted rules (newest last). */
interface RuleState {
  pending: Pending[];
  accepted: AdaptedRule[];
  /** Failing pages to skip before generating candidates again after a page offered none. */
  cooldown: number;
}

// Generating candidates costs ~150 ms a page; when a page offered none, the next few are
// unlikely to do better.
const COOLDOWN_PAGES = 10;

/** Holds adaptation state for one engine; plain data, exportable with {@link AdaptationStore.rules}. */
export class AdaptationStore {
  private readonly byRule = new Map<string, RuleState>();
  private counter = 0;

  constructor(private readonly validationPages: number) {}

  private state(rule: string): RuleState {
    let s = this.byRule.get(rule);
    if (!s) this.byRule.set(rule, (s = { pending: [], accepted: [], cooldown: 0 }));
    return s;
  }

  /** The newest accepted, not rejected, adapted rule for an original rule. */
  activeRule(rule: string): AdaptedRule | undefined {
    return this.byRule.get(rule)?.accepted.filter((r) => r.status !== 'rejected').at(-1);
  }

  hasPending(rule: string): boolean {
    return (this.byRule.get(rule)?.pending.length ?? 0) > 0;
  }

  pending(rule: string): readonly Pending[] {
    return this.byRule.get(rule)?.pending ?? [];
  }

  /** False while cooling down after a page that offered no candidate (counts the page). */
  mayGenerate(rule: string): boolean {
    const s = this.state(rule);
    if (s.cooldown <= 0) return true;
    s.cooldown--;
    return false;
  }

  /**
   * Stores freshly generated candidates, replacing any left; none starts a cooldown. Candidates
   * equal to a rule the archivist rejected are dropped: the same template would otherwise
   * re-adopt it after a few pages. Returns how many were kept.
   */
  propose(rule: string, candidates: RelaxedCandidate[], pageUrl: string): number {
    const s = this.state(rule);
    const rejected = new Set(s.accepted.filter((r) => r.status === 'rejected').map((r) => expressionKey(r.adapted)));
    s.pending = candidates.filter((c) => !rejected.has(expressionKey(c))).map((c) => ({ ...c, generatedOn: pageUrl, validatedOn: [] }));
    if (!s.pending.length) s.cooldown = COOLDOWN_PAGES;
    return s.pending.length;
  }

  /**
   * Records one page's verdicts (`works[i]` for `pending(rule)[i]`): failures are discarded,
   * successes counted. Returns the rule accepted on this page, if one reached the threshold.
   */
  validate(rule: string, pageUrl: string, works: boolean[], action: ExtractAction, applicationId: string, level: PageLevel, now: Date): AdaptedRule | undefined {
    const s = this.state(rule);
    const kept: Pending[] = [];
    s.pending.forEach((p, i) => {
      if (!works[i]) return;
      if (pageUrl !== p.generatedOn && !p.validatedOn.includes(pageUrl)) p.validatedOn.push(pageUrl);
      kept.push(p);
    });
    s.pending = kept;
    const ready = kept.find((p) => p.validatedOn.length >= this.validationPages);
    if (!ready) return undefined;
    const adapted: AdaptedRule = {
      id: `${rule}~adapted-${++this.counter}`,
      applicationId,
      level,
      originalRule: rule,
      original: { select: action.select, fields: Object.fromEntries(action.fields.map((f) => [f.name, f.select])) },
      adapted: { select: ready.select, fields: { ...ready.fields } },
      mutations: [...ready.mutations],
      generatedOn: ready.generatedOn,
      validatedOn: [...ready.validatedOn],
      acceptedAt: now.toISOString(),
      status: 'pending',
    };
    s.accepted.push(adapted);
    s.pending = [];
    return adapted;
  }

  /** Every adapted rule, oldest first (copies: callers cannot change the store by accident). */
  rules(): AdaptedRule[] {
    return [...this.byRule.values()].flatMap((s) => s.accepted.map((r) => structuredClone(r)));
  }

  /** Sets the archivist's decision; false when no such rule. */
  setStatus(id: string, status: ApprovalStatus): boolean {
    for (const s of this.byRule.values()) {
      const r = s.accepted.find((a) => a.id === id);
      if (r) {
        r.status = status;
        return true;
      }
    }
    return false;
  }

  /** Restores rules saved earlier (e.g. from the database after a worker restart). */
  load(rules: readonly AdaptedRule[]): void {
    for (const r of rules) {
      this.state(r.originalRule).accepted.push(structuredClone(r));
      const n = Number(/~adapted-(\d+)$/.exec(r.id)?.[1] ?? 0);
      this.counter = Math.max(this.counter, n);
    }
  }
}

function expressionKey(e: { select: string; fields: Record<string, string> }): string {
  return JSON.stringify([e.select, Object.keys(e.fields).sort().map((k) => [k, e.fields[k]])]);
}

/** Expressions of a pending candidate or adapted rule, in the shape extraction takes. */
export function expressionsOf(action: ExtractAction, fields: Record<string, string>, select: string): ExtractionExpressions {
  return { select, fields: action.fields.map((f) => ({ ...f, select: fields[f.name] ?? f.select })) };
}
