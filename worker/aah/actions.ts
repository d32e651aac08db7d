/** Navigation and extraction actions applied to one page. Pure over a PageContext. */
import type { ExtractAction, FieldRule, NavigateAction } from './kb-types';
import { serializeNode } from './lean-dom';
import { linkTarget, nodeText, type PageContext } from './page-context';

/** A link to queue, with the priority bonus of the rule that selected it. */
export interface FollowLink {
  url: string;
  bonus: number;
  rule: string;
}

/** A link the crawler must not fetch (recorded as excluded with reason `aah`). */
export interface ExcludedLink {
  url: string;
  rule: string;
}

/** A Web object extracted from a page. */
export interface WebObject {
  type: string;
  fields: Record<string, string>;
  /** Rule path `<app>/<level or *>/<rule id>`, or an adapted rule's id. */
  rule: string;
  sourceUrl: string;
}

/**
 * Runs navigation actions. A URL selected by any do-not-follow rule is excluded even when a
 * follow rule also selects it (a login link inside a post list is still a login link); among
 * follow rules the first one to select a URL names it, with the highest bonus that selected it.
 */
export function applyNavigation(
  actions: readonly { action: NavigateAction; rule: string }[],
  page: PageContext,
): { follow: FollowLink[]; doNotFollow: ExcludedLink[] } {
  const follow = new Map<string, FollowLink>();
  const excluded = new Map<string, ExcludedLink>();
  for (const { action, rule } of actions) {
    for (const node of page.ev.select(action.select, page.dom)) {
      const url = linkTarget(node, page);
      if (!url) continue;
      if (!action.follow) {
        if (!excluded.has(url)) excluded.set(url, { url, rule });
        continue;
      }
      const seen = follow.get(url);
      if (!seen) follow.set(url, { url, bonus: action.bonus, rule });
      else if (action.bonus > seen.bonus) seen.bonus = action.bonus;
    }
  }
  for (const url of excluded.keys()) follow.delete(url);
  return { follow: [...follow.values()], doNotFollow: [...excluded.values()] };
}

/** Value of one field on one object node: selected nodes' text (or markup), one per line. */
export function fieldValue(field: Pick<FieldRule, 'select' | 'format'>, object: Node, page: PageContext): string {
  const nodes = page.ev.select(field.select, object);
  const parts = nodes.map((n) => (field.format === 'html' ? serializeNode(n) : nodeText(n)));
  return parts.filter(Boolean).join('\n');
}

/** The expressions an extraction needs; adapted rules supply their own. */
export interface ExtractionExpressions {
  select: string;
  fields: readonly Pick<FieldRule, 'name' | 'select' | 'format' | 'required'>[];
}

/**
 * Objects selected by `expr.select`, each with its non-empty fields. An object lacking a
 * required field, or with no field at all, is not an object.
 */
export function extractObjects(type: string, expr: ExtractionExpressions, rule: string, page: PageContext): WebObject[] {
  const objects: WebObject[] = [];
  for (const node of page.ev.select(expr.select, page.dom)) {
    const fields: Record<string, string> = {};
    let complete = true;
    for (const f of expr.fields) {
      const value = fieldValue(f, node, page);
      if (value) fields[f.name] = value;
      else if (f.required) complete = false;
    }
    if (complete && Object.keys(fields).length) objects.push({ type, fields, rule, sourceUrl: page.url });
  }
  return objects;
}

/** Convenience for a knowledge-base action. */
export function applyExtraction(action: ExtractAction, rule: string, page: PageContext): WebObject[] {
  return extractObjects(action.type, action, rule, page);
}
