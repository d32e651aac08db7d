/**
 * A step of the wall clock, as NTP or an operator's `date -s` makes one, in this process only:
 * Date.now() reads `byMs` off the system's clock until the returned function puts it back. The
 * machine's clock is not touched (that needs root, and would step every other process's too).
 * The monotonic clock (performance.now) does not move, as a real step leaves it.
 */
export function stepWallClock(byMs: number): () => void {
  const systemNow = Date.now;
  Date.now = () => systemNow() + byMs;
  return () => {
    Date.now = systemNow;
  };
}
