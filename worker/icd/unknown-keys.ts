export const UNKNOWN_FIELD = 'Unknown field (misspelt?): it would be ignored';

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Paths of the fields of `input` that parsing dropped (`scope.maxPage` for `maxPages`): zod's
 * objects strip unknown keys, so a misspelt setting in an ICD file was silently replaced by its
 * default. `output` is what the schema made of `input`.
 */
export function unknownKeys(input: unknown, output: unknown, path: string[] = []): string[] {
  if (Array.isArray(input) && Array.isArray(output)) {
    return input.flatMap((item, i) => unknownKeys(item, output[i], [...path, String(i)]));
  }
  if (!isPlainObject(input) || !isPlainObject(output)) return [];
  return Object.keys(input).flatMap((key) =>
    Object.hasOwn(output, key) ? unknownKeys(input[key], output[key], [...path, key]) : [[...path, key].join('.')],
  );
}
