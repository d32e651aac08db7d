import type Database from 'better-sqlite3';
import type { ResolvedImportMap } from '../extract';
import { tableExists } from '../store/sqlite';

/** Documents whose map (or lack of one) stays in memory; older ones are read again from the table. */
const MAPS_IN_MEMORY = 1000;

const DDL = `
CREATE TABLE IF NOT EXISTS engine_import_map (
  crawl_id INTEGER NOT NULL,
  url TEXT NOT NULL,
  -- JSON: {"imports": [[specifier, url]…], "scopes": [[prefix, [[specifier, url]…]]…]}
  map TEXT NOT NULL,
  PRIMARY KEY (crawl_id, url)
) WITHOUT ROWID;
`;

/**
 * The import maps of a crawl's documents, by the document's URL: a module's bare specifiers
 * resolve through the map of the document whose module graph it is in, read when the document was.
 * Only documents with a map have a row (engine_import_map, made when the first is kept), so a
 * resumed crawl resolves the modules of documents read before it; the most recent are in memory.
 */
export class ImportMapStore {
  private readonly recent = new Map<string, ResolvedImportMap | null>();
  private made: boolean;
  private prepared: { keep: Database.Statement; read: Database.Statement } | null = null;

  constructor(private readonly db: Database.Database, private readonly crawlId: number) {
    this.made = tableExists(db, 'engine_import_map');
  }

  /** Keeps the import map of the document at `url`. */
  keep(url: string, map: ResolvedImportMap): void {
    if (!this.made) {
      this.db.exec(DDL);
      this.made = true;
    }
    this.statements().keep.run(this.crawlId, url, serialize(map));
    this.remember(url, map);
  }

  /** The import map of the document at `url`; null when it has none (or was not read). */
  of(url: string): ResolvedImportMap | null {
    const known = this.recent.get(url);
    if (known !== undefined) return known;
    const stored = this.made ? (this.statements().read.get(this.crawlId, url) as string | undefined) : undefined;
    const map = stored === undefined ? null : deserialize(stored);
    this.remember(url, map);
    return map;
  }

  /** The table's statements, prepared once it exists (a crawl of many modules looks maps up often). */
  private statements(): { keep: Database.Statement; read: Database.Statement } {
    this.prepared ??= {
      keep: this.db.prepare('INSERT OR REPLACE INTO engine_import_map (crawl_id, url, map) VALUES (?, ?, ?)'),
      read: this.db.prepare('SELECT map FROM engine_import_map WHERE crawl_id = ? AND url = ?').pluck(),
    };
    return this.prepared;
  }

  private remember(url: string, map: ResolvedImportMap | null): void {
    this.recent.delete(url);
    this.recent.set(url, map);
    if (this.recent.size > MAPS_IN_MEMORY) this.recent.delete(this.recent.keys().next().value!);
  }
}

function serialize(map: ResolvedImportMap): string {
  return JSON.stringify({ imports: [...map.imports], scopes: [...map.scopes].map(([prefix, imports]) => [prefix, [...imports]]) });
}

function deserialize(text: string): ResolvedImportMap {
  const { imports, scopes } = JSON.parse(text) as { imports: [string, string][]; scopes: [string, [string, string][]][] };
  return { imports: new Map(imports), scopes: new Map(scopes.map(([prefix, entries]) => [prefix, new Map(entries)])) };
}
