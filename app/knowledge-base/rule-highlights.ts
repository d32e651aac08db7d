import type { AahTestResult } from '../lib/client/aah';

/** An action's XPath to outline on the preview, and why. */
export interface Highlight {
  rule: string;
  select: string;
  kind: 'follow' | 'do-not-follow' | 'object';
}

/**
 * Finds, in the knowledge base's XML, the `select` of each action the tester reported
 * (rule paths `<application>/<level or *>/<action id>`), so the preview can outline what it
 * selected. Adapted rules (`…~adapted-n`) are not in the XML and are left out.
 */
export function ruleHighlights(xml: string, result: AahTestResult): Highlight[] {
  if (typeof DOMParser === 'undefined') return [];
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length) return [];
  const find = (rule: string): Element | null => {
    const [appId, level, actionId] = rule.split('/');
    if (!appId || !level || !actionId || actionId.includes('~')) return null;
    const app = [...doc.getElementsByTagName('application')].find((a) => a.getAttribute('id') === appId);
    if (!app) return null;
    const scope = level === '*' ? app : [...app.getElementsByTagName('level')].find((l) => l.getAttribute('type') === level);
    if (!scope) return null;
    return [...scope.children].find((c) => (c.localName === 'navigate' || c.localName === 'extract') && c.getAttribute('id') === actionId) ?? null;
  };
  const out: Highlight[] = [];
  const seen = new Set<string>();
  const add = (rule: string, kind: Highlight['kind']) => {
    if (seen.has(rule)) return;
    seen.add(rule);
    const select = find(rule)?.getAttribute('select');
    if (select) out.push({ rule, select, kind });
  };
  result.navigation.forEach((n) => add(n.rule, n.follow ? 'follow' : 'do-not-follow'));
  result.extraction.forEach((e) => add(e.rule, 'object'));
  return out;
}
