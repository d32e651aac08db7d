import { createAahEngine } from './engine';
import { parseKnowledgeBase } from './kb-parser';
import type { KbError } from './kb-types';
import { classifyResponse } from '../extract/extract-response';

/** The first characters of a page sniffed for its type when it came without one (classifyResponse reads fewer bytes). */
const SNIFFED_CHARS = 2048;

/** What the cockpit's live tester shows for one page: per action, what it selects. */
export interface AahTestReport {
  errors: KbError[];
  application: { id: string; name: string; category: string } | null;
  level: string | null;
  /** Navigation actions (rule path) → the links each one queues or refuses. */
  navigation: { rule: string; follow: boolean; links: string[] }[];
  /** Extraction actions (rule path) → the objects each one extracts. */
  extraction: { rule: string; objects: { type: string; fields: Record<string, string> }[] }[];
  /**
   * Set when the page was not analysed, as a crawl would skip it: too large, over the time budget,
   * or a capture that is no HTML page (a crawl runs the AAH on HTML pages only: not on an image, JSON,
   * a redirect, an error page).
   */
  skipped?: 'page-too-large' | 'too-slow' | 'not-html';
}

/** How a captured page was answered: its HTTP status and Content-Type (null: none sent). */
export interface CapturedResponse {
  status: number;
  contentType: string | null;
  /** Its response headers, lower-case names, for the `<header>` signals a crawl's detection reads. */
  headers?: Record<string, string>;
}

/**
 * Whether a crawl runs the AAH on a response: a 2xx answer its extraction reads as HTML (by its
 * Content-Type, or sniffed from `body` when it has none), as the extract stage decides: its
 * redirects, error pages and other types are archived without the AAH.
 */
export function crawlAnalyses(url: string, response: CapturedResponse, body: Buffer): boolean {
  if (response.status < 200 || response.status >= 300) return false;
  const mime = (response.contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  return classifyResponse(url, mime, body) === 'html';
}

/**
 * Runs a knowledge base on one page as the crawler would (a fresh engine, so the page itself
 * decides the application), grouped by action for display. A captured page comes with its
 * `response`: one a crawl would not analyse (crawlAnalyses) is not analysed here either.
 */
export function testKnowledgeBase(xml: string, page: { url: string; html: string; response?: CapturedResponse }): AahTestReport {
  const parsed = parseKnowledgeBase(xml);
  if (!parsed.ok) return { errors: parsed.errors, application: null, level: null, navigation: [], extraction: [] };
  if (page.response && !crawlAnalyses(page.url, page.response, Buffer.from(page.html.slice(0, SNIFFED_CHARS)))) {
    return { errors: [], application: null, level: null, navigation: [], extraction: [], skipped: 'not-html' };
  }
  // detectionAttempts 1: decide on this page alone instead of waiting for more pages of the host.
  const engine = createAahEngine(parsed.kb, { detectionAttempts: 1 });
  const headers = page.response?.headers ?? { 'content-type': 'text/html' };
  const result = engine.analysePage({ url: page.url, status: page.response?.status ?? 200, headers, html: page.html });
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
