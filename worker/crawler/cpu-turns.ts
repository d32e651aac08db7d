/**
 * Gives pages their CPU work one at a time, one per turn of the event loop. Responses that arrive
 * together would otherwise be parsed, written and scheduled back to back within one poll phase, and
 * every timer that came due meanwhile (a host's politeness delay over, the engine's next lease)
 * would wait for all of them: a polite crawl of 200 hosts lost 5–10 % of its rate that way (see
 * bench/README.md, "Where the polite rate is lost").
 *
 * Turns are granted from `setImmediate`, one per check phase, and the next one is scheduled before
 * the current one runs: an immediate queued during the check phase runs in the next turn of the
 * loop, after its timers and I/O. A page that already had a turn (its links to plan after its
 * parse) goes before pages that have not begun: what it holds back is its host's next URLs, which
 * its links may be, and when the first pages of 200 hosts arrived together each host's second
 * request waited for all 200 parses. Otherwise pages are served in the order they asked.
 *
 * Only a polite crawl has delays to keep: without politeness nothing waits on a timer, and the extra
 * turns cost ~2 % of the throughput benchmark's rate (two more passes through the loop per page).
 */
const GRANTED = Promise.resolve();

export class CpuTurns {
  /** Pages that had a turn already, then those that have not: each in the order they asked. */
  private readonly continuing: (() => void)[] = [];
  private readonly starting: (() => void)[] = [];
  private scheduled = false;

  /** `polite`: whether to take turns at all; otherwise every turn is granted at once. */
  constructor(private readonly polite: boolean) {}

  /**
   * Resolves in a turn of the event loop of its own, after the pages that asked before (and, for
   * a page that had no turn yet, after every page that had one).
   */
  take(hadTurn = false): Promise<void> {
    if (!this.polite) return GRANTED;
    return new Promise((resolve) => {
      (hadTurn ? this.continuing : this.starting).push(resolve);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.grant);
  }

  private readonly grant = (): void => {
    this.scheduled = false;
    const next = this.continuing.shift() ?? this.starting.shift();
    if (this.continuing.length || this.starting.length) this.schedule();
    next?.();
  };
}
