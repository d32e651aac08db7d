import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replaceSection } from '../../../bench/support/readme-section';

test('a benchmark replaces its own README section and leaves the prose and other sections alone', () => {
  const before = '# Benchmarks\n\nIntro.\n\n<!-- bench:a -->\nold a\n<!-- /bench:a -->\n\nBetween.\n\n<!-- bench:b -->\nb\n<!-- /bench:b -->\n';
  const after = replaceSection(before, 'a', '## A\n\nnew a\n');
  assert.equal(after, '# Benchmarks\n\nIntro.\n\n<!-- bench:a -->\n## A\n\nnew a\n<!-- /bench:a -->\n\nBetween.\n\n<!-- bench:b -->\nb\n<!-- /bench:b -->\n');
  assert.equal(replaceSection(after, 'a', '## A\n\nnew a'), after, 'idempotent');
});

test('a section not there yet is appended', () => {
  assert.equal(replaceSection('# Benchmarks\n\nIntro.\n', 'c', 'c body'), '# Benchmarks\n\nIntro.\n\n<!-- bench:c -->\nc body\n<!-- /bench:c -->\n');
});
