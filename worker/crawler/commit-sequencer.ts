import type { GroupCommit } from './group-commit';

/**
 * Makes commits happen in the order the WARC records were written. With that, the captures the
 * database acknowledged are always a prefix of each WARC file, so after a crash the file can be
 * cut back to the first unacknowledged record and every page is archived exactly once.
 */
export class CommitSequencer {
  private issued = 0;
  private committed = 0;
  private waiters = new Map<number, () => void>();
  /** The first ticket whose commit was refused, or null. */
  private firstRefused: number | null = null;

  /** Takes the next place in line (call right when submitting the WARC records). */
  ticket(): number {
    return this.issued++;
  }

  /** Resolves when every earlier ticket was settled. */
  async turn(ticket: number): Promise<void> {
    if (ticket === this.committed) return;
    await new Promise<void>((resolve) => this.waiters.set(ticket, resolve));
  }

  /** Marks a ticket settled (committed or abandoned) and lets the next one go. */
  settle(ticket: number): void {
    if (ticket !== this.committed) throw new Error(`commit ${ticket} settled out of order (expected ${this.committed})`);
    this.committed += 1;
    const next = this.waiters.get(this.committed);
    if (next) {
      this.waiters.delete(this.committed);
      next();
    }
  }

  /** Records that `ticket`'s commit was refused: its records stay in the WARC file, unacknowledged. */
  refuse(ticket: number): void {
    if (this.firstRefused === null || ticket < this.firstRefused) this.firstRefused = ticket;
  }

  /**
   * Whether `ticket`'s capture may still be acknowledged: not once a capture before it in the WARC
   * file was refused. The next start cuts the file at the first unacknowledged capture, so one
   * acknowledged behind it would be cut too: stored in the database, gone from the WARC file.
   */
  mayAcknowledge(ticket: number): boolean {
    return this.firstRefused === null || ticket < this.firstRefused;
  }

  /** A commit was refused: the WARC files hold captures never acknowledged, for the next start to cut. */
  get refusedAny(): boolean {
    return this.firstRefused !== null;
  }
}

/**
 * Queues the commit of `ticket`'s capture (whose turn has come) into the next group commit:
 * `acknowledge` while every capture before it in the WARC file was acknowledged, `otherwise` (give
 * the URL back) once one was refused. A refusal is recorded whether the job itself threw or its
 * whole group was rolled back (a full disk), before any later group runs.
 */
export function commitInOrder<T>(sequencer: CommitSequencer, commits: GroupCommit, ticket: number, acknowledge: () => T, otherwise: () => T): Promise<T> {
  const committed = commits.run(() => {
    if (!sequencer.mayAcknowledge(ticket)) return otherwise();
    try {
      return acknowledge();
    } catch (err) {
      // Jobs behind it in the same group run before this promise is rejected.
      sequencer.refuse(ticket);
      throw err;
    }
  });
  committed.catch(() => sequencer.refuse(ticket));
  return committed;
}
