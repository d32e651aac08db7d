/**
 * Whether a request's Origin header names the host it was sent to (the CSRF and cross-site socket
 * checks). False for the opaque origin `null`, for anything that is not a URL (`garbage`) and when
 * there is no Host to compare with: an origin that cannot be checked is refused, never thrown.
 */
export function sameOrigin(origin: string, host: string | null | undefined): boolean {
  if (!host) return false;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  return parsed.host !== '' && parsed.host === host;
}
