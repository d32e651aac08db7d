import { createAahEngine } from './engine';
import { parseKnowledgeBase } from './kb-parser';
import type { KbError } from './kb-types';

/** What the cockpit's live tester shows for one page: per action, what it selects. */
export interface AahTestReport {
  errors: KbError[];
  application: { id: string; name: string; category: string } | null;
  level: string | null;
  /** Navigation actions (rule path) → the links each one queues or refuses. */
  navigation: { rule: string; follow: boolean; links: string[] }[];
  /** Extraction actions (rule path) → the objects each one extracts. */
  extraction: { rule: string; objects: { type: string; fields: Record<string, string> }[] }[];
  /** Set when the page was not analysed, as a crawl would skip it: too large, or over the time budget. */
  skipped?: 'page-too-large' | 'too-slow';
}

/**
 * Runs a knowledge base on one page as the crawler would (a fresh engine, so the page itself
 * decides the application), grouped by action for display.
 */
export function testKnowledgeBase(xml: string, page: { url: string; html: string }): AahTestReport {
  const parsed = parseKnowledgeBase(xml);
  if (!parsed.ok) return { errors: parsed.errors, application: null, level: null, navigation: [], extraction: [] };
  // detectionAttempts 1: decide on this page alone instead of waiting for more pages of the host.
  const engine = createAahEngine(parsed.kb, { detectionAttempts: 1 });
  const result = engine.analysePage({ url: page.url, status: 200, headers: { 'content-type': 'text/html' }, html: page.html });
  const navigation = new Map<string, { rule: string; follow: boolean; links: string[] }>();
  for (const link of result.follow) {
    const entry = navigation.get(link.rule) ?? { rule: link.rule, follow: true, links: [] };
    entry.links.push(link.url);
    navigation.set(link.rule, entry);
  }
  for (const link of result.doNotFollow) {
    const entry = navigation.get(link.rule) ?? { rule: link.rule, follow: false, links: [] };
    entry.links.push(link.url);
    navigation.set(link.rule, entry);
  }
  const extraction = new Map<string, { rule: string; objects: { type: string; fields: Record<string, string> }[] }>();
  for (const object of result.objects) {
    const entry = extraction.get(object.rule) ?? { rule: object.rule, objects: [] };
    entry.objects.push({ type: object.type, fields: object.fields });
    extraction.set(object.rule, entry);
  }
  const report: AahTestReport = { errors: [], application: result.application ?? null, level: result.level, navigation: [...navigation.values()], extraction: [...extraction.values()] };
  if (result.skipped) report.skipped = result.skipped;
  return report;
}
