// A reporter for Node's test runner: each test file's time (the sum of its top-level tests),
// one JSON line per file, for run-tests.mjs to name the slowest files.
export default async function* fileTimes(source) {
  const msByFile = new Map();
  for await (const event of source) {
    if ((event.type !== 'test:pass' && event.type !== 'test:fail') || event.data.nesting !== 0) continue;
    const file = event.data.file ?? '(unknown file)';
    msByFile.set(file, (msByFile.get(file) ?? 0) + (event.data.details?.duration_ms ?? 0));
  }
  for (const [file, ms] of msByFile) yield `${JSON.stringify({ file, ms })}\n`;
}
