/** Whether `url` is its origin's robots.txt (no query), the URL a crawler asks for a host's rules; false for what is no URL. */
export function isRobotsTxtUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.pathname === '/robots.txt' && parsed.search === '';
  } catch {
    return false;
  }
}
