import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseIcdFileText } from '../../../worker/cli/icd-file';

// Before, a UTF-8 byte order mark (Windows editors write one) made the file "not valid JSON",
// though the cockpit's ICD import (the browser's UTF-8 decoding drops it) accepts the same file.
test('an ICD file that starts with a UTF-8 byte order mark is read as the JSON after it', () => {
  assert.deepEqual(parseIcdFileText('\uFEFF{"name":"x","seeds":[]}', 'icd.json'), { name: 'x', seeds: [] });
});

// Before, the JSON parser's message quoted the file's text with its line breaks: one error, several lines.
test('broken JSON is one line naming the file, the text around the fault quoted without its line breaks', () => {
  const text = '{\n  "name": "x",\n  "keywords": ["a", "b",],\n  "scope": {}\n}\n';
  assert.throws(() => parseIcdFileText(text, 'icd.json'), (err: Error) => {
    assert.match(err.message, /^The ICD file icd\.json is not valid JSON: /);
    assert.doesNotMatch(err.message, /[\r\n]/);
    return true;
  });
  assert.throws(() => parseIcdFileText('', 'empty.json'), { message: /^The ICD file empty\.json is not valid JSON: .*end of JSON input/ });
});

test('a file that holds another JSON value than an object is refused', () => {
  for (const text of ['[1]', 'null', '"seeds"', '3']) assert.throws(() => parseIcdFileText(text, 'a.json'), { message: /^The ICD file a\.json must hold one JSON object$/ });
});
