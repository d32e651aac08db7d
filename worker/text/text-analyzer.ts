import snowball from 'snowball-stemmers';
import stopwordLists from 'stopword';
import { detectLanguage, languageInfo, stemmableLanguages, type LanguageInfo } from './language';
import { eachToken } from './tokenize';
import { AsciiTermTable } from './ascii-term-table';
import type { TermVector } from './term-vector';

/** Options of a text analyzer. */
export interface TextAnalyzerOptions {
  /** Fixed ISO 639-3 language (skips detection), e.g. when the ICD says the crawl is English. */
  language?: string;
  /** Language assumed when detection is undetermined (default 'eng'). */
  fallbackLanguage?: string;
  /**
   * Restricts detection to these ISO 639-3 codes. Default: the languages that have a stop-word
   * list or a stemmer here — franc otherwise picks near neighbours such as Scots for short English.
   */
  candidateLanguages?: string[];
  /** Minimum token length (default 2). */
  minTokenLength?: number;
  /** Entries kept in each language's stem cache before it is cleared (default 100,000). */
  stemCacheSize?: number;
}

/** Terms of one text, with the language they were analysed as. */
export interface AnalyzedText {
  language: LanguageInfo;
  terms: string[];
}

/** Turns raw text into index terms: tokenise, drop stop words, stem — per detected language. */
export interface TextAnalyzer {
  /** Analyses `text`; `language` (ISO 639-3) overrides detection for this call. */
  analyze(text: string, language?: string): AnalyzedText;
  /** The language `analyze` would analyse `text` as (`language`: as for analyze). */
  languageOf(text: string, language?: string): LanguageInfo;
  /** Index terms of a short text (a keyword, an anchor) in a known language, without detection. */
  terms(text: string, language: string): string[];
  /** How often each index term occurs in `text` (a known language): terms() counted, without the array. */
  termCounts(text: string, language: string): TermVector;
  /** The detected ISO 639-3 language of a text among the candidates, or 'und'. */
  detect(text: string): string;
}

interface LanguageTools {
  info: LanguageInfo;
  /** A token's index term: its stem, or '' for a stop word. */
  termOf: (token: string) => string;
  stems: Map<string, string>;
  /** termCounts of ASCII text: the same terms, without a string per token. */
  ascii: AsciiTermTable;
}

/**
 * Creates a text analyzer. It caches stemmers and stems per language — state owned by the
 * returned object, never module-global — because stemming the same words again dominates the cost.
 */
export function createTextAnalyzer(options: TextAnalyzerOptions = {}): TextAnalyzer {
  const stopwordKeys = new Set(Object.keys(stopwordLists).filter((k) => Array.isArray(stopwordLists[k])));
  const tools = new Map<string, LanguageTools>();
  const minLength = options.minTokenLength ?? 2;
  const cacheSize = options.stemCacheSize ?? 100_000;
  const fallback = options.fallbackLanguage ?? 'eng';
  const candidates = options.candidateLanguages ?? [...new Set([...stopwordKeys, ...stemmableLanguages()])].filter((k) => /^[a-z]{3}$/.test(k));

  function toolsFor(iso6393: string): LanguageTools {
    let t = tools.get(iso6393);
    if (t) return t;
    const info = languageInfo(iso6393, stopwordKeys);
    const list = info.stopwordKey ? stopwordLists[info.stopwordKey] : undefined;
    // Stop words are normalised like tokens so 'Über' in a list matches 'über' in a text.
    const stopwords = new Set(Array.isArray(list) ? list.map((w) => w.normalize('NFKC').toLowerCase()) : []);
    const stemmer = info.stemmer ? snowball.newStemmer(info.stemmer) : undefined;
    const termOf = (token: string): string => (stopwords.has(token) ? '' : stemmer ? stemmer.stem(token) : token);
    t = { info, termOf, stems: new Map(), ascii: new AsciiTermTable(termOf, minLength, cacheSize) };
    tools.set(iso6393, t);
    return t;
  }

  /** Calls `visit` with each index term of `text`: its tokens without stop words, stemmed. */
  function eachTerm(t: LanguageTools, text: string, visit: (term: string) => void): void {
    eachToken(text, minLength, (token) => {
      // One lookup per token: the cache also holds stop words, as ''.
      let stem = t.stems.get(token);
      if (stem === undefined) {
        stem = t.termOf(token);
        if (t.stems.size >= cacheSize) t.stems.clear();
        t.stems.set(token, stem);
      }
      if (stem.length > 0) visit(stem);
    });
  }

  function termsWith(t: LanguageTools, text: string): string[] {
    const out: string[] = [];
    eachTerm(t, text, (term) => out.push(term));
    return out;
  }

  const detect = (text: string): string => detectLanguage(text, { only: candidates });

  function languageOf(text: string, language?: string): LanguageTools {
    // A caller's 'und' means detection already ran and could not tell.
    const iso = language ?? options.language ?? detect(text);
    return toolsFor(iso === 'und' ? fallback : iso);
  }

  return {
    analyze(text, language) {
      const t = languageOf(text, language);
      return { language: t.info, terms: termsWith(t, text) };
    },
    languageOf(text, language) {
      return languageOf(text, language).info;
    },
    terms(text, language) {
      return termsWith(toolsFor(language), text);
    },
    termCounts(text, language) {
      const t = toolsFor(language);
      const ascii = t.ascii.count(text);
      if (ascii) return ascii;
      const counts: TermVector = new Map();
      eachTerm(t, text, (term) => counts.set(term, (counts.get(term) ?? 0) + 1));
      return counts;
    },
    detect,
  };
}
