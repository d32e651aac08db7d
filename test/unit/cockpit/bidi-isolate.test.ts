/**
 * Plain text that cannot hold a <bdi> (an <option>, a confirm dialog) isolates a name between U+2068
 * FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE, its own isolates balanced: a right-to-left
 * override in an ICD's name reversed the crawl's id after it in the pickers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isolate } from '../../../app/lib/client/bidi-isolate';

const FSI = '\u2068';
const PDI = '\u2069';
const RLI = '\u2067';
const RLO = '\u202E';

test('a name is put between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, as it is', () => {
  assert.equal(isolate('Harbour'), `${FSI}Harbour${PDI}`);
  assert.equal(isolate(`Tides ${RLO}1#`), `${FSI}Tides ${RLO}1#${PDI}`);
  assert.equal(isolate(''), `${FSI}${PDI}`);
});

test("the name's own isolates cannot end the isolate early nor take its end", () => {
  // A stray PDI would close ours, and the override after it would reach the id.
  assert.equal(isolate(`a${PDI}${RLO}b`), `${FSI}a${RLO}b${PDI}`);
  // An isolate the name leaves open is closed before ours.
  assert.equal(isolate(`a${RLI}b`), `${FSI}a${RLI}b${PDI}${PDI}`);
  // Balanced ones are kept.
  assert.equal(isolate(`a${RLI}b${PDI}c`), `${FSI}a${RLI}b${PDI}c${PDI}`);
});
