/**
 * Collects crawl events and flushes them at a fixed interval, so a socket.io room receives at
 * most one message per event kind per interval however fast the crawl goes. Stats and status keep
 * only the latest value; captures accumulate (capped: the table shows the newest anyway).
 */
export interface BatchedEvent {
  crawlId: number;
  kind: 'stats' | 'capture' | 'relevance' | 'coherence' | 'status';
  payload: unknown;
}

const MAX_CAPTURES_PER_FLUSH = 50;

export class EventBatcher {
  private latest = new Map<string, BatchedEvent>();
  private captures = new Map<number, unknown[]>();

  /** Records an event; it is sent on the next flush. */
  push(event: BatchedEvent): void {
    if (event.kind === 'capture') {
      const list = this.captures.get(event.crawlId) ?? [];
      list.push(...(event.payload as unknown[]));
      this.captures.set(event.crawlId, list.slice(-MAX_CAPTURES_PER_FLUSH));
      return;
    }
    this.latest.set(`${event.crawlId}:${event.kind}`, event);
  }

  /** Returns what accumulated since the last flush and clears it. */
  flush(): BatchedEvent[] {
    const out = [...this.latest.values()];
    for (const [crawlId, captures] of this.captures) out.push({ crawlId, kind: 'capture', payload: { captures } });
    this.latest.clear();
    this.captures.clear();
    return out;
  }
}
