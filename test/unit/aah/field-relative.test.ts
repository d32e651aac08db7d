import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseKnowledgeBase } from '../../../worker/aah/index';
import { compileXPath } from '../../../worker/aah/xpath-eval';
import { startsAtDocumentRoot, treeOf } from '../../../worker/aah/xpath-tree';

const rooted = (expression: string): boolean => startsAtDocumentRoot(treeOf(compileXPath(expression)));

test('expressions that start at the document root, parenthesised or not', () => {
  for (const e of ['/x', '//x', '(//h2)[1]', ' ( //h2 ) [1]', '( //x | //y )', './/x | //y', '(//h2)/a', '((//h2))[last()]', "id('top')", '/', '//x[1]//y']) {
    assert.equal(rooted(e), true, e);
  }
});

test('expressions that start from the context node', () => {
  for (const e of [
    '(.//h2)[1]', './h2', 'h2', '.', '..', './/h2', '@href', '(.//time/@datetime)[1]', 'ancestor::body//h1', '( .//x | y )',
    // Predicates and string literals may name the document: the nodes selected are still reached from the context.
    ".//a[@href = //link/@href]", "h2[contains(., '//x')]", "(.//a[starts-with(@href,'/')])[1]",
  ]) {
    assert.equal(rooted(e), false, e);
  }
});

const kb = (field: string) => `<?xml version="1.0"?>
<knowledge-base version="1">
  <application id="board" name="Board" category="forum">
    <detect><xpath>//body</xpath></detect>
    <extract id="post" type="post" select="//div">
      <field name="title" select="${field}"/>
    </extract>
  </application>
</knowledge-base>
`;

test('a field whose select starts at the document root is refused, naming its line; a relative one is kept', () => {
  for (const select of ['(//h2)[1]', '( //x | //y )', '/x', '//x']) {
    const r = parseKnowledgeBase(kb(select));
    assert.equal(r.ok, false, select);
    if (!r.ok) {
      assert.equal(r.errors.length, 1, JSON.stringify(r.errors));
      assert.equal(r.errors[0].line, 6);
      assert.match(r.errors[0].message, /must be relative to the object/);
    }
  }
  for (const select of ['(.//h2)[1]', './h2', 'h2']) {
    const r = parseKnowledgeBase(kb(select));
    assert.ok(r.ok, `${select}: ${JSON.stringify(!r.ok && r.errors)}`);
  }
});

test('an invalid field expression gets its compile error only', () => {
  const r = parseKnowledgeBase(kb('(//h2'));
  assert.equal(r.ok, false);
  if (!r.ok) assert.equal(r.errors.length, 1);
});
