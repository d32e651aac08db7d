/** The windows of a WARC file the out-links reader keeps (worker/warc/read-windows.ts): pure, no file. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReadWindows } from '../../../worker/warc/read-windows';

const window = (pos: number, length: number, file = 'a.warc.gz') => ({ file, pos, bytes: Buffer.alloc(length, pos % 251) });

test('a window read for a requisite elsewhere in the file leaves the pages\' window kept', () => {
  const windows = new ReadWindows(2, 1_000_000);
  windows.add(window(1_000_000, 1000));
  windows.add(window(0, 100));
  assert.equal(windows.bytesAt('a.warc.gz', 1_000_500, 1_000_600, 10_000_000)?.length, 500, 'the pages\' window, from the position asked');
  assert.equal(windows.bytesAt('a.warc.gz', 10, 50, 10_000_000)?.length, 90);
  assert.equal(windows.bytesAt('a.warc.gz', 1_000_900, 1_001_100, 10_000_000), undefined, 'past the end of every window');
  assert.equal(windows.bytesAt('a.warc.gz', 1_000_900, 1_001_100, 1_001_000)?.length, 100, 'the file ends within the window');
});

test('the least recently used window goes when more are read than are kept', () => {
  const windows = new ReadWindows(2, 1_000_000);
  windows.add(window(0, 100));
  windows.add(window(1000, 100));
  assert.ok(windows.bytesAt('a.warc.gz', 0, 10, 5000), 'used now: the window at 1000 is the least recently used');
  windows.add(window(2000, 100));
  assert.ok(windows.bytesAt('a.warc.gz', 0, 10, 5000));
  assert.ok(windows.bytesAt('a.warc.gz', 2000, 2010, 5000));
  assert.equal(windows.bytesAt('a.warc.gz', 1000, 1010, 5000), undefined);
});

test('windows of every file count together, and one read larger than a window to hold a long member is not kept', () => {
  const windows = new ReadWindows(2, 1000);
  windows.add(window(0, 1000, 'a.warc.gz'));
  windows.add(window(0, 1000, 'b.warc.gz'));
  assert.equal(windows.bytesAt('a.warc.gz', 10, 20, 5000)?.[0], 0, 'each file its own bytes');
  assert.equal(windows.bytesAt('c.warc.gz', 10, 20, 5000), undefined);
  windows.add(window(0, 1000, 'c.warc.gz'));
  assert.equal(windows.bytesAt('b.warc.gz', 10, 20, 5000), undefined, 'the least recently used of all files went');
  windows.add(window(5000, 64 * 1000, 'c.warc.gz'));
  assert.equal(windows.bytesAt('c.warc.gz', 5000, 5010, 100_000), undefined);
  assert.equal(windows.heldBytes, 2000, 'two windows of 1,000 bytes, no more');
});
