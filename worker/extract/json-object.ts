/** `text` parsed as JSON when it is an object (an array counts as one), else null: broken JSON is no error here. */
export function jsonObjectOf(text: string): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
}
