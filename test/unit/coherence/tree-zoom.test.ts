import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PAN_STEP, ZOOM_FACTOR, zoomStepOfKey } from '../../../app/crawls/[id]/coherence/tree-zoom';

test('zoom keys: + and = zoom in, − zooms out, 0 resets; Shift with an arrow looks that way; plain arrows stay the tree’s', () => {
  assert.deepEqual(zoomStepOfKey('+', true), { kind: 'scale', by: ZOOM_FACTOR });
  assert.deepEqual(zoomStepOfKey('=', false), { kind: 'scale', by: ZOOM_FACTOR }, 'the + key unshifted');
  assert.deepEqual(zoomStepOfKey('-', false), { kind: 'scale', by: 1 / ZOOM_FACTOR });
  assert.deepEqual(zoomStepOfKey('0', false), { kind: 'reset' });
  assert.deepEqual(zoomStepOfKey('ArrowLeft', true), { kind: 'pan', dx: PAN_STEP, dy: 0 }, 'the tree moves right to show what is left');
  assert.deepEqual(zoomStepOfKey('ArrowDown', true), { kind: 'pan', dx: 0, dy: -PAN_STEP });
  for (const key of ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'Enter', ' ', 'a']) assert.equal(zoomStepOfKey(key, false), null, key);
  assert.equal(zoomStepOfKey('Tab', true), null, 'Shift+Tab leaves the tree');
});
