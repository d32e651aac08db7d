// Each benchmark rewrites its own section of bench/README.md (between `<!-- bench:NAME -->` and
// `<!-- /bench:NAME -->`), so the README always shows the latest run's figures and exact commands
// while the prose around the sections stays hand-written.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_README = join(dirname(fileURLToPath(import.meta.url)), '..', 'README.md');

/** `text` with the section `name` replaced by `markdown` (appended at the end when absent). */
export function replaceSection(text: string, name: string, markdown: string): string {
  const open = `<!-- bench:${name} -->`;
  const close = `<!-- /bench:${name} -->`;
  const block = `${open}\n${markdown.trim()}\n${close}`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start >= 0 && end > start) return text.slice(0, start) + block + text.slice(end + close.length);
  return `${text.trimEnd()}\n\n${block}\n`;
}

/** Rewrites one section of bench/README.md in place. */
export function writeReadmeSection(name: string, markdown: string, path = BENCH_README): void {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n';
  writeFileSync(path, replaceSection(text, name, markdown));
}
