/**
 * Recrawl rounds' back-off for a host that is down: when none of a round's refetches of its pages
 * got any answer (no connection, or a server that never sent a byte), its pages skip rounds, twice
 * as many after each such round, up to MAX_BACKOFF_ROUNDS; the first answer ends the back-off. A host
 * down for good is otherwise refetched at every round for ever, each page logging a failure.
 */

/** A host in back-off: down at `downRounds` rounds in a row, the last for `reason`; its pages are refetched again from `nextRound` on. */
export interface HostBackoff {
  downRounds: number;
  nextRound: number;
  reason: string;
}

/** The most rounds between two tries of a host that is down. */
export const MAX_BACKOFF_ROUNDS = 16;

/**
 * A host's back-off after `round`: `downReason` null when one of its refetches got an answer
 * (the back-off ends), else the reason none did.
 */
export function backoffAfterRound(prior: HostBackoff | null, round: number, downReason: string | null): HostBackoff | null {
  if (downReason === null) return null;
  const downRounds = (prior?.downRounds ?? 0) + 1;
  return { downRounds, nextRound: round + Math.min(2 ** downRounds, MAX_BACKOFF_ROUNDS), reason: downReason };
}

/** Whether a host's pages are left out of `round` (its back-off is not over). */
export function backedOff(b: HostBackoff | undefined, round: number): boolean {
  return b !== undefined && round < b.nextRound;
}

/** What a refetch got from its page's host: any answer, or nothing at all (why: the failure's reason; fetch/no-answer.ts gotNoAnswer). */
export type HostAnswer = { answered: true } | { answered: false; reason: string };

/**
 * What a round observed of each host it refetched pages of: answered (any response), or down with
 * the last failure's reason. A refetch that observed nothing of the host (robots.txt said no, a
 * pause cut it off) is not noted.
 */
export class HostTally {
  private readonly hosts = new Map<string, { answered: boolean; reason: string; url: string; tries: number }>();

  /** A refetch of `url` on `host` got an answer (answered) or failed for `reason` with nothing from the host. */
  note(host: string, url: string, answer: HostAnswer): void {
    const h = this.hosts.get(host) ?? { answered: false, reason: '', url, tries: 0 };
    h.tries++;
    if (answer.answered) h.answered = true;
    else h.reason = answer.reason;
    this.hosts.set(host, h);
  }

  /** Whether a refetch of `host` got an answer so far; null when none was noted. */
  answered(host: string): boolean | null {
    return this.hosts.get(host)?.answered ?? null;
  }

  /** Each host noted: null when it answered, else why it did not; the first page tried and how many refetches were. */
  entries(): { host: string; downReason: string | null; url: string; tries: number }[] {
    return [...this.hosts].map(([host, h]) => ({ host, downReason: h.answered ? null : h.reason, url: h.url, tries: h.tries }));
  }
}
