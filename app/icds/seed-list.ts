/**
 * The seeds text area's text → seed URLs, pure. One URL per line, and a line may hold several
 * separated by commas, as a list copied from a spreadsheet or an e-mail often is
 * ("http://a.example/, http://b.example/"): taken as one URL, that line was a seed nobody meant.
 * A comma separates only where no URL would put one: followed by whitespace, or directly followed
 * by `http://` or `https://`. Commas elsewhere belong to the URL (`/a,b`, `?tags=x,y`).
 */

/** A seed URL and the line of the text it is on (1 for the first). */
export interface SeedItem {
  url: string;
  line: number;
}

/** A comma followed by whitespace, or by the scheme of the next URL. */
const SEED_SEPARATOR = /,(?:\s+|(?=https?:\/\/))/i;

/** The seeds in `text`, in order, each with its line; blank lines and empty items are skipped. */
export function seedItems(text: string): SeedItem[] {
  const items: SeedItem[] = [];
  text.split('\n').forEach((line, i) => {
    for (const part of line.split(SEED_SEPARATOR)) {
      const url = part.trim();
      if (url) items.push({ url, line: i + 1 });
    }
  });
  return items;
}
