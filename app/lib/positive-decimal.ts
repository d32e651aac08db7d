/**
 * A whole number from 1 written in decimal digits only (Number() also reads `1e300`, `0x1`, ` 1`),
 * or null: ids in API routes and page addresses, and page numbers.
 */
export function positiveDecimal(text: string | null | undefined): number | null {
  if (!text || !/^[1-9]\d{0,15}$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : null;
}
