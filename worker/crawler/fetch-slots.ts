/**
 * How many more URLs the engine may lease: `concurrency` pages are in flight at once.
 *
 * Where something other than the crawl's thread paces the fetches, only pages still fetching (or
 * waiting for DNS or robots.txt) hold a slot, and fetched pages waiting to be processed may be as
 * many again, which bounds the bodies held:
 * - a focused crawl with an analysis thread: pages waiting for that thread (the focused crawl of the
 *   throughput benchmark runs 6–9% faster);
 * - a polite crawl: each host's delay. Fetched pages waiting for the crawl thread must not keep a
 *   host whose delay is over from its next request (in a run of bench:politeness, on a loaded
 *   machine, they held all 256 slots in 1,086 of the engine's 2,424 passes).
 * Otherwise the crawl thread is the bottleneck, and more pages in flight only cost memory and GC
 * (~7% slower on the throughput benchmark).
 */
export interface SlotState {
  concurrency: number;
  /** Pages leased and not yet fetched. */
  fetching: number;
  /** Pages leased and not yet done (fetching or processed). */
  inFlight: number;
  /** URLs the page budget still allows. */
  budgetLeft: number;
}

export function fetchSlotsOnly(o: { batchSize: number; analysisThread: boolean; polite: boolean }): boolean {
  // A host batch (batch prioritisation) holds its slot for all of its URLs (host-batch.ts).
  return o.batchSize === 1 && (o.analysisThread || o.polite);
}

export function freeSlots(s: SlotState, fetchSlotsOnly: boolean): number {
  return fetchSlotsOnly
    ? Math.min(s.concurrency - s.fetching, 2 * s.concurrency - s.inFlight, s.budgetLeft)
    : Math.min(s.concurrency - s.inFlight, s.budgetLeft);
}
