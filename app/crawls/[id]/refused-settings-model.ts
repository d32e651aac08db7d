/**
 * How the crawl page edits a refused setting of a crawl's ICD copy (refused-settings.tsx): a list of
 * texts (exclude patterns, seeds) one a line, a text as it is, anything else as JSON. Pure, so the
 * round trip is tested without a browser.
 */
export type EditKind = 'lines' | 'text' | 'json';

export function editKindOf(value: unknown): EditKind {
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return 'lines';
  return typeof value === 'string' ? 'text' : 'json';
}

/** The stored value as the field first shows it. */
export function editableText(value: unknown): string {
  const kind = editKindOf(value);
  if (kind === 'lines') return (value as string[]).join('\n');
  if (kind === 'text') return value as string;
  return JSON.stringify(value ?? null, null, 2);
}

/** The value typed for a field first shown as `kind`; blank lines of a list are dropped (an entry a line). */
export function typedValue(text: string, kind: EditKind): { value: unknown } | { error: string } {
  if (kind === 'lines') return { value: text.split(/\r?\n/).filter((line) => line.trim() !== '') };
  if (kind === 'text') return { value: text };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (err) {
    return { error: `Not valid JSON: ${(err as Error).message}` };
  }
}
