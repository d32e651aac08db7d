import { notFound } from 'next/navigation';
import { positiveDecimal } from '../positive-decimal';

/** A page's `[id]` segment as a number; anything but a plain decimal id (`abc`, `0x1`, `-1`) is the 404 page. */
export function routeId(segment: string): number {
  const id = positiveDecimal(segment);
  if (id === null) notFound();
  return id;
}
