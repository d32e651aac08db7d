/**
 * The system's words for a failed file operation, as the cockpit shows them beside the code: Node's
 * message without the code, the call and the server's absolute path.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errnoMessage } from '../../../worker/store/folder-removal';

const errnoError = (message: string, code: string, syscall: string) => Object.assign(new Error(message), { code, syscall });

test('the words between the code and the call, the path left out', () => {
  assert.equal(errnoMessage(errnoError("EPERM: operation not permitted, unlink '/srv/tidemark/warcs/7/a, b.warc.gz'", 'EPERM', 'unlink')), 'operation not permitted');
  assert.equal(errnoMessage(errnoError("ENOTEMPTY: directory not empty, rmdir '/srv/tidemark/warcs/7'", 'ENOTEMPTY', 'rmdir')), 'directory not empty');
  assert.equal(errnoMessage(errnoError('EBUSY: resource busy or locked, unlink', 'EBUSY', 'unlink')), 'resource busy or locked');
});

test('another error\'s message whole', () => {
  assert.equal(errnoMessage(new Error('something else')), 'something else');
  assert.equal(errnoMessage(errnoError('EPERM without the usual shape', 'EPERM', 'unlink')), 'EPERM without the usual shape');
  assert.equal(errnoMessage('a string thrown'), 'a string thrown');
});
