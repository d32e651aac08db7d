// An esbuild plugin shared by the CLI's bundle (bin/tidemark.js), the cockpit server's
// (scripts/server-bundle.mjs) and the test runner's compiled tests (scripts/run-tests.mjs): each of
// our modules keeps its own location when bundled, so import.meta.url, dirname and filename still
// name the source file (a knowledge base, the migrations, a fixture beside a test) and not the bundle.
import { readFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * `read`, when given, receives each compiled file's text by its path relative to `root` (what a
 * digest of the bundle's inputs must cover). In a CommonJS bundle import.meta.resolve becomes
 * `__tidemarkResolve`, which the bundle's banner defines.
 */
// Spelt in two parts: this file is bundled with the tests that import server-bundle.mjs, and the
// plugin would otherwise rewrite its own search strings.
const META = ['import', 'meta'].join('.');

export function sourceLocation(root, format, read) {
  return {
    name: 'source-location',
    setup(b) {
      // Our ES modules in plain JavaScript too (scripts/server-bundle.mjs finds the repository from its own location).
      b.onLoad({ filter: /\.(?:[cm]?tsx?|mjs)$/ }, async (args) => {
        if (args.path.endsWith('.mjs') && args.path.includes('/node_modules/')) return undefined;
        const text = await readFile(args.path, 'utf8');
        read?.set(relative(root, args.path), text);
        let src = text
          .replaceAll(`${META}.dirname`, JSON.stringify(dirname(args.path)))
          .replaceAll(`${META}.filename`, JSON.stringify(args.path))
          .replaceAll(`${META}.url`, JSON.stringify(pathToFileURL(args.path).href));
        if (format === 'cjs') src = src.replaceAll(`${META}.resolve(`, '__tidemarkResolve(');
        return { contents: src, loader: args.path.endsWith('.mjs') ? 'js' : args.path.endsWith('x') ? 'tsx' : 'ts' };
      });
    },
  };
}
