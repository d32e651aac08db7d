import { readFileSync } from 'node:fs';

/** An ICD file's JSON object, as the command line reads it. */
export type IcdFileObject = { seeds?: string[] } & Record<string, unknown>;

/**
 * The JSON object in an ICD file's text. A UTF-8 byte order mark is dropped, as the cockpit's
 * import does (the browser's decoder drops it). Broken JSON, or another value than an object, is an
 * error naming the file, on one line: the parser's message quotes the text around the fault, line
 * breaks included.
 */
export function parseIcdFileText(text: string, path: string): IcdFileObject {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new Error(`The ICD file ${path} is not valid JSON: ${(err as Error).message.replace(/\r\n?|\n/g, '\\n')}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`The ICD file ${path} must hold one JSON object`);
  return value as IcdFileObject;
}

/** The ICD file's JSON object; an unreadable file is an error that names it. */
export function readIcdFile(path: string): IcdFileObject {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`Cannot read the ICD file ${path}: ${(err as Error).message}`);
  }
  return parseIcdFileText(text, path);
}
