/**
 * Collects crawl events and flushes them at a fixed interval, so a socket.io room receives at
 * most one message per event kind per interval however fast the crawl goes. Stats and status keep
 * only the latest value; captures accumulate, capped (the table shows the newest anyway), with the
 * count of all of them, so the page's count of captures keeps up with a crawl faster than the cap.
 */
export interface BatchedEvent {
  crawlId: number;
  kind: 'stats' | 'capture' | 'relevance' | 'coherence' | 'status';
  payload: unknown;
  /** For captures: how many the payload stands for (it may hold only the newest); its length when absent. */
  count?: number;
}

const MAX_CAPTURES_PER_FLUSH = 50;

export class EventBatcher {
  private latest = new Map<string, BatchedEvent>();
  private captures = new Map<number, { list: unknown[]; count: number }>();

  /** Records an event; it is sent on the next flush. */
  push(event: BatchedEvent): void {
    if (event.kind === 'capture') {
      const added = event.payload as unknown[];
      const batch = this.captures.get(event.crawlId) ?? { list: [], count: 0 };
      batch.list.push(...added);
      batch.list = batch.list.slice(-MAX_CAPTURES_PER_FLUSH);
      batch.count += Math.max(event.count ?? 0, added.length);
      this.captures.set(event.crawlId, batch);
      return;
    }
    this.latest.set(`${event.crawlId}:${event.kind}`, event);
  }

  /** Returns what accumulated since the last flush and clears it. */
  flush(): BatchedEvent[] {
    const out = [...this.latest.values()];
    for (const [crawlId, { list, count }] of this.captures) out.push({ crawlId, kind: 'capture', payload: { captures: list, count } });
    this.latest.clear();
    this.captures.clear();
    return out;
  }
}
