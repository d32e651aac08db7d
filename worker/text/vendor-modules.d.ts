// Type declarations for the two untyped NLP packages this folder uses (neither ships types).

declare module 'snowball-stemmers' {
  /** A Snowball stemmer for one language. */
  export interface SnowballStemmer {
    stem(word: string): string;
  }
  /** Names of the algorithms available, e.g. 'english', 'french'. */
  export function algorithms(): string[];
  /** Creates a stemmer; throws for an unknown algorithm name. */
  export function newStemmer(algorithm: string): SnowballStemmer;
  const snowball: { algorithms: typeof algorithms; newStemmer: typeof newStemmer };
  export default snowball;
}

declare module 'stopword' {
  /** Stop-word lists keyed by ISO 639-3 code (plus a few variants such as `porBr`). */
  const lists: Record<string, string[] | ((tokens: string[], stopwords?: string[]) => string[])>;
  export = lists;
}
