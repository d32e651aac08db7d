// A reporter for Node's test runner, for run-tests.mjs: one JSON line per test file with its time
// (the sum of its top-level tests), then one with the run's counts (its closing diagnostics).
export default async function* fileTimes(source) {
  const msByFile = new Map();
  const counts = {};
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0) {
      const file = event.data.file ?? '(unknown file)';
      msByFile.set(file, (msByFile.get(file) ?? 0) + (event.data.details?.duration_ms ?? 0));
    }
    const count = event.type === 'test:diagnostic' && event.data.nesting === 0 && /^(pass|fail) (\d+)$/.exec(event.data.message);
    if (count) counts[count[1]] = Number(count[2]);
  }
  for (const [file, ms] of msByFile) yield `${JSON.stringify({ file, ms })}\n`;
  yield `${JSON.stringify({ counts })}\n`;
}
