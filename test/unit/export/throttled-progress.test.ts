import { test } from 'node:test';
import assert from 'node:assert/strict';
import { throttledProgress } from '../../../worker/export/export-job';

test('progress is written once it has moved by a step, and always at its end', () => {
  const written: number[] = [];
  const progress = throttledProgress((f) => written.push(f), 0.1);
  for (const f of [0, 0.01, 0.05, 0.1, 0.15, 0.21, 0.3, 0.95, 0.99, 1, 1]) progress(f);
  assert.deepEqual(written, [0, 0.1, 0.21, 0.95, 1]);
});

test('thousands of reports a second become at most a hundred writes by default', () => {
  let writes = 0;
  const progress = throttledProgress(() => writes++);
  for (let i = 0; i <= 100_000; i++) progress(i / 100_000);
  assert.ok(writes <= 101, `${writes} writes`);
  assert.ok(writes >= 100);
});

test('a fraction below the last written is not written: progress never goes back', () => {
  const written: number[] = [];
  const progress = throttledProgress((f) => written.push(f), 0.1);
  for (const f of [0, 0.3, 0.1, 0.35, 0.45, 0.2, 1]) progress(f);
  assert.deepEqual(written, [0, 0.3, 0.45, 1]);
});
