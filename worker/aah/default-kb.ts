/** Where the shipped knowledge base lives, and reading it (the one file-system edge of the AAH). */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** Absolute path of knowledge-base/default.xml in this repository. */
export const DEFAULT_KB_PATH = fileURLToPath(new URL('../../knowledge-base/default.xml', import.meta.url));

/** Reads the shipped knowledge base's XML (parse it with `parseKnowledgeBase`). */
export function loadDefaultKnowledgeBaseXml(path: string = DEFAULT_KB_PATH): Promise<string> {
  return readFile(path, 'utf8');
}
