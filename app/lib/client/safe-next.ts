/** Where the cockpit goes after signing in when `?next=` names no page of its own. */
const HOME = '/crawls';

/**
 * The page `?next=` asks to return to after signing in, as a path of this cockpit (`origin`), or
 * the crawls list. It is read as the browser will read it: `/\evil.example` and `/<tab>/evil.example`
 * start with one slash but lead to another site (a backslash counts as a slash, tabs are dropped),
 * and a link to the sign-in page must not send a user, just signed in, to a look-alike page.
 */
export function safeNext(next: string | null, origin: string): string {
  if (!next?.startsWith('/')) return HOME;
  try {
    const url = new URL(next, origin);
    return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : HOME;
  } catch {
    return HOME;
  }
}
