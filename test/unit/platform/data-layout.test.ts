import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exportDir, isInside } from '../../../worker/store/data-layout';

// What an export's delete checks before it removes a path: only inside the exports folder.
test('a path is inside a folder only strictly below it, never by a .. or a look-alike name', () => {
  assert.equal(isInside('/d/exports', exportDir('/d', 7)), true);
  assert.equal(isInside('/d/exports', '/d/exports/7/sub/x.warc.gz'), true);
  assert.equal(isInside('/d/exports', '/d/exports'), false, 'the folder itself');
  assert.equal(isInside('/d/exports', '/d/exports/../warcs/7/x.warc.gz'), false);
  assert.equal(isInside('/d/exports', '/d/exports-old/7'), false);
  assert.equal(isInside('/d/exports', '/d'), false);
  assert.equal(isInside('/d/exports', '/elsewhere/7'), false);
  assert.equal(isInside('/d/exports', '/d/exports/..x/7'), true, 'a name beginning with two dots is a name');
});
