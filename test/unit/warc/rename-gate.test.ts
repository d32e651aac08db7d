import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RenameGate } from '../../../worker/warc/rename-gate';

/** A gate whose renames are recorded, in order. */
function gate() {
  const renamed: string[] = [];
  return { renamed, gate: new RenameGate(async (f) => void renamed.push(f)) };
}

test('a closed file with no capture waiting takes its final name at once', async () => {
  const { renamed, gate: g } = gate();
  g.written('a');
  g.acknowledged('a');
  await g.fileClosed('a');
  assert.deepEqual(renamed, ['a']);
});

test('a file closed by rotation keeps its open name until its last capture is acknowledged', async () => {
  const { renamed, gate: g } = gate();
  g.written('a');
  g.written('a');
  g.acknowledged('a');
  await g.fileClosed('a');
  g.written('b');
  assert.deepEqual(renamed, [], 'one capture of a still waits');
  g.acknowledged('a');
  await g.settle();
  assert.deepEqual(renamed, ['a']);
  g.acknowledged('b');
  await g.settle();
  assert.deepEqual(renamed, ['a'], 'b is not closed yet');
});

test('abandoned, a file still waiting is not renamed; closed cleanly, every file is', async () => {
  const abandoned = gate();
  abandoned.gate.written('a');
  await abandoned.gate.fileClosed('a');
  await abandoned.gate.settle();
  assert.deepEqual(abandoned.renamed, []);

  const { renamed, gate: g } = gate();
  g.written('a');
  await g.fileClosed('a');
  g.written('b');
  await g.fileClosed('b');
  await g.renameAll();
  assert.deepEqual(renamed, ['a', 'b']);
});

test('a rename that fails started by an acknowledgement is thrown by the clean close', async () => {
  const g = new RenameGate(async () => {
    throw new Error('EIO');
  });
  g.written('a');
  await assert.rejects(g.fileClosed('b'), /EIO/);
  await g.fileClosed('a');
  g.acknowledged('a');
  await g.settle();
  await assert.rejects(g.renameAll(), /EIO/);
});
