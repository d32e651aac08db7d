/** The crawl page's fields for correcting a crawl's refused settings: what they show, and what they send. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { editKindOf, editableText, typedValue } from '../../../app/crawls/[id]/refused-settings-model';

test('a list of texts is edited one a line, a text as it is, anything else as JSON', () => {
  assert.equal(editKindOf(['(a+)+$', '/login']), 'lines');
  assert.equal(editableText(['(a+)+$', '/login']), '(a+)+$\n/login');
  assert.equal(editKindOf('Tidemark\r\nX: 1'), 'text');
  assert.equal(editKindOf({ text: 5000 }), 'json');
  assert.equal(editableText({ text: 5000 }), '{\n  "text": 5000\n}');
  assert.equal(editKindOf([{ term: 'tide', weight: 2000 }]), 'json');
});

test('what is typed goes back as the value: lines without the blank ones, JSON parsed or said to be invalid', () => {
  assert.deepEqual(typedValue('a+$\n\n/login\r\n', 'lines'), { value: ['a+$', '/login'] });
  assert.deepEqual(typedValue('', 'lines'), { value: [] });
  assert.deepEqual(typedValue('{"text": 5}', 'json'), { value: { text: 5 } });
  const broken = typedValue('{"text": }', 'json');
  assert.ok('error' in broken);
  assert.match(broken.error, /^Not valid JSON: /);
  assert.deepEqual(typedValue(' as typed ', 'text'), { value: ' as typed ' });
});
