import type { CrawlStats } from '../events/messages';

/** Elapsed time as h:mm:ss: a crawl may run for days, and this reads the same at any length. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const two = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(total / 3600)}:${two(Math.floor(total / 60) % 60)}:${two(total % 60)}`;
}

const count = (n: number) => n.toLocaleString('en-US');

/** Counts by reason, largest first: "http-5xx 3, robots-unavailable 1". */
export function reasonCounts(byReason: Record<string, number>): string {
  return Object.entries(byReason)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([reason, n]) => `${reason} ${count(n)}`)
    .join(', ');
}

/** One line of a running crawl's progress, as Heritrix's progress-statistics log gives it; with hosts in back-off, when the next is tried. */
export function progressLine(stats: CrawlStats, elapsedMs: number): string {
  const backoff = stats.hostsInBackoff && stats.nextHostTryAt
    ? [`waiting for ${count(stats.hostsInBackoff)} host${stats.hostsInBackoff === 1 ? '' : 's'} giving no answer, next try ${stats.nextHostTryAt.slice(11, 19)} UTC`]
    : [];
  return [
    formatElapsed(elapsedMs),
    `${count(stats.fetched)} pages`,
    `${(stats.bytes / 1e6).toFixed(1)} MB`,
    `${count(stats.queued)} queued`,
    `${count(stats.inFlight)} in flight`,
    `${count(stats.failed)} failed`,
    `${count(stats.excluded)} excluded`,
    `${stats.pagesPerSecond} pages/s`,
    ...backoff,
  ].join('  ');
}

export interface ProgressReporter {
  /** Removes a terminal's status line, so that another message can be printed. */
  clear(): void;
  stop(): void;
}

/** One status line on a terminal, rewritten in place; `clear` removes it so that other output can follow. */
export function terminalLine(out: { write(text: string): unknown }): { show(text: string): void; clear(): void } {
  let shown = false;
  return {
    show(text) {
      out.write(`\r\x1b[K${text}`);
      shown = true;
    },
    clear() {
      if (shown) out.write('\r\x1b[K');
      shown = false;
    },
  };
}

/**
 * Reports a running crawl on `out` every `everyMs`: on a terminal as one status line rewritten in
 * place, otherwise as a line each time (a log file keeps them). The timer does not keep the
 * process alive.
 */
export function reportProgress(
  read: () => CrawlStats,
  out: { write(text: string): unknown },
  opts: { tty: boolean; everyMs: number; now?: () => number },
): ProgressReporter {
  const now = opts.now ?? Date.now;
  const started = now();
  const line = opts.tty ? terminalLine(out) : null;
  const timer = setInterval(() => {
    const text = `tidemark: ${progressLine(read(), now() - started)}`;
    if (line) line.show(text);
    else out.write(`${text}\n`);
  }, opts.everyMs);
  timer.unref();
  const clear = () => line?.clear();
  return {
    clear,
    stop() {
      clearInterval(timer);
      clear();
    },
  };
}
