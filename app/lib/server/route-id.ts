import { notFound } from 'next/navigation';

/** A page's `[id]` segment as a number; anything but a plain decimal id (`abc`, `0x1`, `-1`) is the 404 page. */
export function routeId(segment: string): number {
  if (!/^[1-9]\d{0,15}$/.test(segment)) notFound();
  return Number(segment);
}
