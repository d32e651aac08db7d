/**
 * Makes commits happen in the order the WARC records were written. With that, the captures the
 * database acknowledged are always a prefix of each WARC file, so after a crash the file can be
 * cut back to the first unacknowledged record and every page is archived exactly once.
 */
export class CommitSequencer {
  private issued = 0;
  private committed = 0;
  private waiters = new Map<number, () => void>();

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
}
