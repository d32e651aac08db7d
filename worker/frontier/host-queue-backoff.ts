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
