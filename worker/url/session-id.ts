/**
 * Session ids in URLs: a server that cannot set a cookie writes the visitor's session into each link
 * (`;jsessionid=…` in the path, `PHPSESSID=…`, `sid=…`, ASP's `ASPSESSIONIDxxxxxxxx=…`, ColdFusion's
 * `CFID`/`CFTOKEN`, vBulletin's `s=<32 hex>`), so the same page links to the same pages with other
 * URLs at every request. Heritrix strips such ids when it compares URLs (its StripSessionIDs and
 * StripSessionCFIDs rules). Tidemark keeps the URLs as found (a replay asks for them so) and reads
 * them without the ids where two captures of a page are compared. Pure.
 */

/** `;jsessionid=…` as Java servlet containers add it to a path (Tomcat, Jetty: `…;jsessionid=abc.node0`). */
const PATH_SESSION = /;jsessionid=[^?#/;]*/i;

/** Query parameter names that carry a session, and the value they must have to be taken for one. */
const TOKEN = /^[0-9a-z_.-]{16,}$/i;
const NUMBER_OR_TOKEN = /^([0-9]+|[0-9a-z_.-]{16,})$/i;
const SESSION_PARAMS: readonly { name: RegExp; value: RegExp }[] = [
  { name: /^(jsessionid|phpsessid|sid|sessionid|session_id|zenid|oscsid)$/i, value: TOKEN },
  { name: /^aspsessionid[a-z]{8}$/i, value: /^[a-z]{24}$/i },
  { name: /^(cfid|cftoken)$/i, value: NUMBER_OR_TOKEN },
  // vBulletin: `s` is a session only as 32 hex digits; `?s=term` is a search elsewhere.
  { name: /^s$/, value: /^[0-9a-f]{32}$/i },
];

function isSessionParam(param: string): boolean {
  const eq = param.indexOf('=');
  if (eq <= 0) return false;
  const name = param.slice(0, eq);
  const value = param.slice(eq + 1);
  return SESSION_PARAMS.some((p) => p.name.test(name) && p.value.test(value));
}

/**
 * Something every session id above has in its URL: `;jsessionid=` and each parameter name hold
 * `sess`, `sid`, `zenid`, `cfid` or `cftoken`, and vBulletin's is `s=` after `?` or `&`. The
 * frontier asks of every link (its seen key, frontier/url-hash.ts), and most have none of these.
 */
const SESSION_HINT = /sess|sid|zenid|cfid|cftoken|[?&]s=/i;

/** False when `url` certainly holds no session id: no `;` nor `?`, or nothing SESSION_HINT finds. */
export function mayHoldSessionId(url: string): boolean {
  return (url.includes(';') || url.includes('?')) && SESSION_HINT.test(url);
}

/** `url` without the session ids in its path and query; as it is (the same string) when it has none. Never throws. */
export function withoutSessionIds(url: string): string {
  if (!mayHoldSessionId(url)) return url;
  const hash = url.indexOf('#');
  const fragment = hash >= 0 ? url.slice(hash) : '';
  const beforeFragment = hash >= 0 ? url.slice(0, hash) : url;
  const q = beforeFragment.indexOf('?');
  const path = (q >= 0 ? beforeFragment.slice(0, q) : beforeFragment).replace(PATH_SESSION, '');
  if (q < 0) return path + fragment;
  const kept = beforeFragment.slice(q + 1).split('&').filter((p) => !isSessionParam(p));
  return (kept.length ? `${path}?${kept.join('&')}` : path) + fragment;
}
