import type { ServerResponse } from 'node:http';

/**
 * Headers that forbid every page to show a cockpit response in a frame (clickjacking: a same-site
 * page on another port or a sibling subdomain is sent the session cookie, and could frame the
 * signed-in Users page under a decoy and trick clicks). `frame-ancestors` is the standard;
 * X-Frame-Options is for browsers that predate it. A srcdoc frame inside the cockpit (the
 * knowledge-base tester's preview) is not concerned: these govern who frames the cockpit.
 */
export const NO_FRAMING_HEADERS: Readonly<Record<string, string>> = {
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
};

/** Sets NO_FRAMING_HEADERS on a response before any handler writes it (writeHead merges them). */
export function refuseFraming(res: ServerResponse): void {
  for (const [name, value] of Object.entries(NO_FRAMING_HEADERS)) res.setHeader(name, value);
}
