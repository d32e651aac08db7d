import { copyFileSync, linkSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Takes the crawl's files `names` from `crawlDir` into an export's own folder `exportDir`, so the
 * export stays as it was made when the crawl is resumed. A closed WARC file is written once and
 * never changed (the writer creates `<name>.open` exclusively and renames it when closed): it is
 * hard-linked, which costs no room, and copied where links cannot be made (another file system).
 * Every other file (the CDXJ index, rewritten when the crawl pauses again; the coherence
 * certificate, written in place) is copied.
 */
export function snapshotCrawlFiles(crawlDir: string, exportDir: string, names: readonly string[]): void {
  mkdirSync(exportDir, { recursive: true });
  for (const name of names) {
    const from = join(crawlDir, name);
    const to = join(exportDir, name);
    if (name.endsWith('.warc.gz')) {
      try {
        linkSync(from, to);
        continue;
      } catch {
        // Copied below; a file that is not there fails the copy too, naming it.
      }
    }
    copyFileSync(from, to);
  }
}
