import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  equalsToContains, literalTokens, nameTests, replaceLiteralValues, replaceNameTests, replaceValueAndTag, swapClassId,
} from '../../../worker/aah/xpath-rewrite';

const E = "//div[contains(concat(' ',normalize-space(@class),' '),' post ')]//h3[@class='first']/a";

test('name tests and literal tokens are found outside string literals only', () => {
  assert.deepEqual(nameTests(E), ['div', 'h3', 'a']);
  assert.deepEqual(nameTests("count(//p[@x='1' and @y])"), ['p']);
  assert.deepEqual(nameTests("//a/ancestor::section[@id='div']"), ['a', 'section']);
  assert.deepEqual(literalTokens(E), ['post', 'first']);
});

test('@class and @id swap one occurrence at a time', () => {
  assert.deepEqual(swapClassId("//div[@class='a']/p[@id='b']").map((r) => r.expression), [
    "//div[@id='a']/p[@id='b']",
    "//div[@class='a']/p[@class='b']",
  ]);
});

test('= becomes contains()', () => {
  assert.deepEqual(equalsToContains("//h3[@class='first']").map((r) => [r.expression, r.mutation]), [
    ["//h3[contains(@class,'first')]", "@class='first' → contains()"],
  ]);
});

test('literal values are replaced keeping their padding', () => {
  const out = replaceLiteralValues(E, ['entry']).map((r) => r.expression);
  assert.deepEqual(out, [
    "//div[contains(concat(' ',normalize-space(@class),' '),' entry ')]//h3[@class='first']/a",
    "//div[contains(concat(' ',normalize-space(@class),' '),' post ')]//h3[@class='entry']/a",
  ]);
});

test('name tests are replaced, never inside function names or literals', () => {
  const out = replaceNameTests("//h3[contains(@class,'h3')]", ['h2']).map((r) => r.expression);
  assert.deepEqual(out, ["//h2[contains(@class,'h3')]"]);
});

test('a value and the element carrying it change together', () => {
  const out = replaceValueAndTag(E, [{ value: 'entry', tag: 'article' }]);
  assert.equal(out[0].expression, "//article[contains(concat(' ',normalize-space(@class),' '),' entry ')]//h3[@class='first']/a");
  assert.equal(out[0].mutation, "'post' → 'entry', div → article");
  assert.equal(out[1].expression, "//div[contains(concat(' ',normalize-space(@class),' '),' post ')]//article[@class='entry']/a");
});
