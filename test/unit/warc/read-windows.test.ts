/** The windows of a WARC file the out-links reader keeps (worker/warc/read-windows.ts): pure, no file. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReadWindows } from '../../../worker/warc/read-windows';

const window = (pos: number, length: number) => ({ pos, bytes: Buffer.alloc(length, pos % 251) });

test('a window read for a requisite elsewhere in the file leaves the pages\' window kept', () => {
  const windows = new ReadWindows(2);
  windows.add(window(1_000_000, 1000));
  windows.add(window(0, 100));
  assert.equal(windows.bytesAt(1_000_500, 1_000_600, 10_000_000)?.length, 500, 'the pages\' window, from the position asked');
  assert.equal(windows.bytesAt(10, 50, 10_000_000)?.length, 90);
  assert.equal(windows.bytesAt(1_000_900, 1_001_100, 10_000_000), undefined, 'past the end of every window');
  assert.equal(windows.bytesAt(1_000_900, 1_001_100, 1_001_000)?.length, 100, 'the file ends within the window');
});

test('the least recently used window goes when more are read than are kept', () => {
  const windows = new ReadWindows(2);
  windows.add(window(0, 100));
  windows.add(window(1000, 100));
  assert.ok(windows.bytesAt(0, 10, 5000), 'used now: the window at 1000 is the least recently used');
  windows.add(window(2000, 100));
  assert.ok(windows.bytesAt(0, 10, 5000));
  assert.ok(windows.bytesAt(2000, 2010, 5000));
  assert.equal(windows.bytesAt(1000, 1010, 5000), undefined);
});
