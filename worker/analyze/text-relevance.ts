import type { TermVector } from '../text';

/**
 * Text relevance: cosine similarity with the topic vector at three granularities — the whole
 * document, the paragraph around the anchor, the anchor text — combined per link, so that a link
 * inside a paragraph about the topic outranks the same link in an unrelated paragraph.
 */

/** How much each granularity counts for a link (normalised over the granularities present). */
export interface GranularityWeights {
  document: number;
  paragraph: number;
  anchor: number;
}

/** Defaults: the paragraph counts as much as the whole page; the short anchor text less. */
export const DEFAULT_GRANULARITY_WEIGHTS: Readonly<GranularityWeights> = Object.freeze({ document: 0.4, paragraph: 0.4, anchor: 0.2 });

/** The text scores of one link. */
export interface LinkTextScores {
  document: number;
  paragraph?: number;
  anchor?: number;
  /** The combined text score in [0, 1]. */
  score: number;
}

/**
 * Combines a link's similarities. A missing paragraph or anchor (an image link, a link with no
 * context) is left out and the remaining weights share its part, rather than counting it as 0.
 */
export function combineGranularities(
  document: number,
  paragraph: number | undefined,
  anchor: number | undefined,
  weights: GranularityWeights = DEFAULT_GRANULARITY_WEIGHTS,
): LinkTextScores {
  let total = weights.document;
  let sum = weights.document * document;
  const out: LinkTextScores = { document, score: 0 };
  if (paragraph !== undefined) {
    out.paragraph = paragraph;
    total += weights.paragraph;
    sum += weights.paragraph * paragraph;
  }
  if (anchor !== undefined) {
    out.anchor = anchor;
    total += weights.anchor;
    sum += weights.anchor * anchor;
  }
  out.score = total > 0 ? clamp01(sum / total) : 0;
  return out;
}

/**
 * Text scores of one link from its vectors (empty or absent vectors = granularity missing);
 * `similarityToTopic` is usually `cosineTo(topicVector)`.
 */
export function scoreLinkText(
  similarityToTopic: (v: TermVector) => number,
  documentSimilarity: number,
  paragraph: TermVector | undefined,
  anchor: TermVector | undefined,
  weights?: GranularityWeights,
): LinkTextScores {
  const p = paragraph && paragraph.size ? similarityToTopic(paragraph) : undefined;
  const a = anchor && anchor.size ? similarityToTopic(anchor) : undefined;
  return combineGranularities(documentSimilarity, p, a, weights);
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}
