import { test } from 'node:test';
import assert from 'node:assert/strict';
import { leftoverExportIds } from '../../../worker/export/export-delete';

test('left-over export folders: those of deleted and cancelled exports; running, pending, done and failed ones, and names not an id, stay', () => {
  const rows: Record<number, string> = { 1: 'done', 2: 'cancelled', 3: 'running', 4: 'pending', 5: 'failed' };
  assert.deepEqual(leftoverExportIds(['1', '2', '3', '4', '5', '6', 'notes', '07', '0', '6.bak'], (id) => rows[id]), [2, 6]);
});
