/**
 * A host in back-off as the host-queues report lists it (host-queues.ts): no I/O here, so the
 * cockpit's report page can word it.
 */

/** Since when (ms) the host gives no answer, when one of its URLs is tried next, tries failed so far, the last failure's reason. */
export interface HostQueueBackoff {
  since: number;
  nextTryAt: number;
  tries: number;
  reason: string;
}

/** A host's back-off in a few words, for the report's table: the next try, the tries failed, the last reason. */
export function backoffWords(b: HostQueueBackoff, time: (ms: number) => string = (ms) => new Date(ms).toLocaleTimeString()): string {
  const failed = b.tries === 0 ? '' : `, ${b.tries} ${b.tries === 1 ? 'try' : 'tries'} failed`;
  return `next try ${time(b.nextTryAt)}${failed} (${b.reason})`;
}

/**
 * The crawl page's line while hosts are in back-off (the crawl's counters hostsInBackoff and
 * nextHostTryAt): a crawl that only waits for such hosts looks stalled otherwise.
 */
export function waitingForHostsWords(hosts: number, nextTryAt: string | undefined, time: (ms: number) => string = (ms) => new Date(ms).toLocaleTimeString()): string {
  const next = nextTryAt && !Number.isNaN(Date.parse(nextTryAt)) ? `; next try at ${time(Date.parse(nextTryAt))}` : '';
  const which = hosts === 1 ? '1 host that gives no answer: its URLs are' : `${hosts.toLocaleString('en-US')} hosts that give no answer: their URLs are`;
  return `Waiting for ${which} held back${next}. The host-queues report and the crawl log's host-backoff entries say which, and when one is given up.`;
}
