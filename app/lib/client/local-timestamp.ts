/**
 * A moment as the crawl log and the captures table show it: date and time of day in the
 * browser's zone, `2025-11-30 21:08:03`, always the same width. A time of day alone (what they
 * showed) could not tell two days apart, and crawls with feeds or recrawl rounds run for days.
 */
export function localTimestamp(at: string | number | Date): string {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return String(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}
