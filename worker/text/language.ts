import { franc } from 'franc';

/**
 * Language detection with `franc` (ISO 639-3 codes), mapped to what the Snowball stemmers and the
 * `stopword` lists know. `und` means undetermined (too little text, or a script franc can't judge).
 */

/** ISO 639-3 → Snowball algorithm name, for every language `snowball-stemmers` implements. */
const SNOWBALL_BY_ISO6393: Readonly<Record<string, string>> = {
  arb: 'arabic', ara: 'arabic', hye: 'armenian', eus: 'basque', cat: 'catalan', ces: 'czech',
  dan: 'danish', nld: 'dutch', eng: 'english', fin: 'finnish', fra: 'french', deu: 'german',
  hun: 'hungarian', ita: 'italian', gle: 'irish', nob: 'norwegian', nno: 'norwegian', nor: 'norwegian',
  por: 'portuguese', ron: 'romanian', rus: 'russian', spa: 'spanish', slv: 'slovene',
  swe: 'swedish', tam: 'tamil', tur: 'turkish',
};

/**
 * franc sometimes answers with a macro-language member code that the `stopword` package files
 * under another key (standard Arabic, Persian, Malay, Norwegian); everything else is identical.
 */
const STOPWORD_KEY_ALIASES: Readonly<Record<string, string>> = {
  arb: 'ara', pes: 'fas', zsm: 'msa', nno: 'nob', nor: 'nob', cmn: 'zho', ekk: 'est', lvs: 'lav',
};

/** What the text pipeline needs to know about a language. */
export interface LanguageInfo {
  /** ISO 639-3 code as franc gives it, or 'und'. */
  iso6393: string;
  /** Snowball algorithm name, when a stemmer exists for the language. */
  stemmer?: string;
  /** Key of the `stopword` package's list, when it has one. */
  stopwordKey?: string;
}

/** Describes a language code: which stemmer and which stop-word list apply. */
export function languageInfo(iso6393: string, stopwordKeys: ReadonlySet<string>): LanguageInfo {
  const info: LanguageInfo = { iso6393 };
  const stemmer = SNOWBALL_BY_ISO6393[iso6393];
  if (stemmer) info.stemmer = stemmer;
  const key = STOPWORD_KEY_ALIASES[iso6393] ?? iso6393;
  if (stopwordKeys.has(key)) info.stopwordKey = key;
  return info;
}

/**
 * Detects the language of a text; returns 'und' below `minLength` characters, where franc's
 * guesses are unreliable. `only` restricts the candidates (e.g. the languages an ICD expects).
 */
export function detectLanguage(text: string, options: { minLength?: number; only?: string[] } = {}): string {
  const minLength = options.minLength ?? 20;
  // franc reads at most a few thousand characters meaningfully; a long page costs time for nothing.
  const sample = text.length > 4000 ? text.slice(0, 4000) : text;
  return franc(sample, { minLength, ...(options.only ? { only: options.only } : {}) });
}

/** The ISO 639-3 codes that have a Snowball stemmer here. */
export function stemmableLanguages(): string[] {
  return Object.keys(SNOWBALL_BY_ISO6393);
}
