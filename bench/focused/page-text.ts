import type { PageInput, PageLink } from '../../worker/analyze';
import { mixSeed, seededRandom, ZipfSampler } from './random';
import { pageUrl, type WebGraph } from './web-graph';

/**
 * Page text for the simulated web, generated on demand from the page id: content words from the
 * page's topic and sub-topic vocabularies in proportion to its topicality, a Zipf-distributed
 * general vocabulary otherwise, and real English stop words in between (the analyzer must drop
 * them). Anchors and the paragraphs around them are drawn from the target's vocabulary (and the
 * paragraph partly from the source's), as on the real web.
 */

const SYLLABLES = ['ka', 'lo', 'mi', 'ru', 'te', 'zo', 'pa', 'ne', 'vi', 'su', 'do', 'fe', 'gu', 'ba', 'to', 'ri', 'mo', 'la', 've', 'ni'];
const STOP_WORDS = ['the', 'of', 'and', 'to', 'in', 'is', 'for', 'with', 'on', 'that', 'this', 'are', 'was', 'by', 'as', 'at', 'from', 'it', 'be', 'or'];
const GENERAL_SIZE = 20000;
const TOPIC_SIZE = 150;
const SUB_SIZE = 60;

/** A unique pseudo-word per id: the id written in base 20 with syllables as digits. */
function word(id: number): string {
  let s = '';
  let x = id;
  for (let i = 0; i < 4; i++) {
    s += SYLLABLES[x % 20];
    x = Math.floor(x / 20);
  }
  return s;
}

/** Generates texts for one graph; holds the vocabularies (built once). */
export class PageTextGenerator {
  private readonly general: string[];
  private readonly topicWords: string[][];
  private readonly subWords: string[][];
  private readonly generalZipf = new ZipfSampler(GENERAL_SIZE, 1.0);
  private readonly topicZipf = new ZipfSampler(TOPIC_SIZE, 1.0);
  private readonly subZipf = new ZipfSampler(SUB_SIZE, 1.0);
  private readonly stopZipf = new ZipfSampler(STOP_WORDS.length, 1.0);

  constructor(private readonly g: WebGraph) {
    const { topics, subtopicsPerTopic } = g.params;
    this.general = Array.from({ length: GENERAL_SIZE }, (_, i) => word(i));
    this.topicWords = Array.from({ length: topics }, (_, t) => Array.from({ length: TOPIC_SIZE }, (_, k) => word(30_000 + t * 200 + k)));
    this.subWords = Array.from({ length: topics * subtopicsPerTopic }, (_, s) => Array.from({ length: SUB_SIZE }, (_, k) => word(40_000 + s * 100 + k)));
  }

  /** One content word for a page of topic t / sub-topic s with topicality a (hubs: any topic). */
  private contentWord(rand: () => number, t: number, s: number, a: number): string {
    if (rand() >= a) return this.general[this.generalZipf.sample(rand)]!;
    if (rand() < 0.6) return this.topicWords[t]![this.topicZipf.sample(rand)]!;
    return this.subWords[t * this.g.params.subtopicsPerTopic + s]![this.subZipf.sample(rand)]!;
  }

  private words(rand: () => number, count: number, p: number, stopShare = 0.3): string[] {
    const out: string[] = [];
    const g = this.g;
    for (let i = 0; i < count; i++) {
      if (rand() < stopShare) out.push(STOP_WORDS[this.stopZipf.sample(rand)]!);
      else if (g.hub[p]) {
        const t = Math.floor(rand() * g.params.topics);
        out.push(this.contentWord(rand, t, Math.floor(rand() * g.params.subtopicsPerTopic), 0.3));
      } else out.push(this.contentWord(rand, g.topic[p]!, g.subtopic[p]!, g.alpha[p]!));
    }
    return out;
  }

  /** The main-content text of page p. */
  text(p: number): string {
    const rand = seededRandom(mixSeed(this.g.params.seed, p, 2));
    return this.words(rand, 120 + Math.floor(rand() * 200), p).join(' ');
  }

  /** Anchor text and surrounding paragraph of the k-th link of page p, pointing at q. */
  link(p: number, k: number, q: number): { anchorText: string; context: string } {
    const rand = seededRandom(mixSeed(this.g.params.seed, p, 3, k));
    // A fifth of anchors say nothing ("read more").
    const anchor = rand() < 0.2 ? ['read', 'more'] : this.words(rand, 1 + Math.floor(rand() * 3), q, 0.1);
    const before = this.words(rand, 8, p);
    const about = this.words(rand, 10, q);
    return { anchorText: anchor.join(' '), context: [...before, ...about, ...anchor].join(' ') };
  }

  /** Page p as the analysis receives it (main text and out-links with anchors and contexts). */
  page(p: number): PageInput {
    const g = this.g;
    const links: PageLink[] = [];
    for (let i = g.linkStart[p]!, k = 0; i < g.linkStart[p + 1]!; i++, k++) {
      const q = g.linkTargets[i]!;
      links.push({ url: pageUrl(g, q), kind: 'navigation', ...this.link(p, k, q) });
    }
    return { url: pageUrl(g, p), text: this.text(p), links, language: 'eng' };
  }
}
