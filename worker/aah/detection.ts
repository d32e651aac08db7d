/** Which application made a page, and at which level the page sits. Pure over a PageContext. */
import type { Application, KnowledgeBase, PageLevel, Signal } from './kb-types';
import type { PageContext } from './page-context';

/**
 * Whether a signal matches a page of this URL and headers; XPath signals are answered by `xpath`
 * (evaluation on the DOM, or a cheaper necessary condition: ./markup-check.ts).
 */
export function signalMatchesWith(signal: Signal, url: string, headers: Record<string, string>, xpath: (expression: string) => boolean): boolean {
  switch (signal.kind) {
    case 'xpath':
      return xpath(signal.expression);
    case 'url':
      return signal.pattern.test(url);
    case 'header': {
      const value = headers[signal.name];
      return value !== undefined && signal.pattern.test(value);
    }
  }
}

function signalMatches(signal: Signal, page: PageContext): boolean {
  return signalMatchesWith(signal, page.url, page.headers, (expression) => page.ev.test(expression, page.dom));
}

/** Sum of the weights of the application's detection signals for which `matches` holds. */
export function scoreOf(app: Application, matches: (signal: Signal) => boolean): number {
  let score = 0;
  for (const s of app.detection.signals) if (matches(s)) score += s.weight;
  return score;
}

/** Sum of the weights of the application's detection signals that match the page. */
export function detectionScore(app: Application, page: PageContext): number {
  return scoreOf(app, (s) => signalMatches(s, page));
}

/** Detection outcome with the scores that decided it (for the cockpit's live tester). */
export interface DetectionResult {
  application: Application | null;
  scores: Record<string, number>;
}

/**
 * The application whose score reaches its threshold and is highest; specific applications beat
 * generic ones whatever the scores (a WordPress blog is also a generic blog), ties go to the
 * one written first in the knowledge base.
 */
export function detectApplication(kb: KnowledgeBase, page: PageContext): DetectionResult {
  const scores: Record<string, number> = {};
  let best: Application | null = null;
  let bestScore = -1;
  for (const generic of [false, true]) {
    for (const app of kb.applications) {
      if (app.generic !== generic) continue;
      const score = detectionScore(app, page);
      scores[app.id] = score;
      if (score >= app.detection.threshold && score > bestScore) {
        best = app;
        bestScore = score;
      }
    }
    if (best) break;
  }
  return { application: best, scores };
}

/** The first level (in knowledge-base order) any of whose signals matches, or null. */
export function detectLevel(app: Application, page: PageContext): PageLevel | null {
  for (const level of app.levels) {
    if (level.detect.some((s) => signalMatches(s, page))) return level.level;
  }
  return null;
}
