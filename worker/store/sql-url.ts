/**
 * The host (with its port) of an absolute URL column `url`, as an SQL expression: the text between
 * "://" and the next "/". For grouping and filtering captures and crawl-log entries by host in SQLite.
 */
const AFTER_SCHEME = "substr(url, instr(url, '://') + 3)";
export const HOST_OF_URL_SQL = `CASE WHEN instr(${AFTER_SCHEME}, '/') > 0 THEN substr(${AFTER_SCHEME}, 1, instr(${AFTER_SCHEME}, '/') - 1) ELSE ${AFTER_SCHEME} END`;
