/**
 * Text search in SQL, pure (no driver: the cockpit's export form imports the selection code that
 * uses it). The two SQL functions it calls are registered on every connection openSqlite makes.
 */

/** The SQL function that lower-cases text as JavaScript does (every script). */
export const UNICODE_LOWER = 'unicode_lower';

/** The SQL function that reads a stored URL as a person does (url/readable-url.ts). */
export const URL_TEXT = 'url_text';

/** One condition of a WHERE clause: SQL with `?` placeholders and their values. */
export interface SqlCondition {
  sql: string;
  params: unknown[];
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * True when one of `columns` contains `text` as written (`%`, `_` and `\` are themselves), letters
 * in either case. ASCII text is compared with SQLite's own lower() (it folds ASCII letters only,
 * which is all such text needs, and costs no call into JavaScript per row); other text, "élan", with
 * the connection's unicode_lower (openSqlite), so it finds "Élan" too. The one definition of the
 * lists' text search (captures, crawl log, Web objects, crawls) and of an export's "URL contains".
 */
export function containsTextSql(columns: readonly string[], text: string): SqlCondition {
  const lower = ASCII.test(text) ? 'lower' : UNICODE_LOWER;
  return { sql: `(${columns.map((c) => `instr(${lower}(${c}), ${lower}(?)) > 0`).join(' OR ')})`, params: columns.map(() => text) };
}

/**
 * containsTextSql for columns holding URLs, which store letters outside ASCII percent-encoded
 * (`caf%C3%A9`) and hosts in punycode: such a text, "café", is also matched against each URL as a
 * person reads it (url/readable-url.ts, the connection's url_text), in Unicode's composed form, so
 * it finds `…/caf%C3%A9` and `…/CAF%C3%89`. ASCII text is matched as written against the URL as
 * stored (`%C3%A9` finds it too), with no call into JavaScript per row.
 */
export function urlContainsTextSql(columns: readonly string[], text: string): SqlCondition {
  if (ASCII.test(text)) return containsTextSql(columns, text);
  const folded = text.normalize('NFC').toLowerCase();
  return {
    sql: `(${columns.map((c) => `instr(${UNICODE_LOWER}(${c}), ?) > 0 OR instr(${UNICODE_LOWER}(${URL_TEXT}(${c})), ?) > 0`).join(' OR ')})`,
    params: columns.flatMap(() => [folded, folded]),
  };
}

/** True when any of `conditions` is. */
export function anyOf(...conditions: readonly SqlCondition[]): SqlCondition {
  return { sql: `(${conditions.map((c) => c.sql).join(' OR ')})`, params: conditions.flatMap((c) => c.params) };
}
