import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { caseInsensitiveRegExp, foldAsciiCase } from '../../../worker/process/case-insensitive-regexp';

// Patterns of the kinds archivists write (URL patterns, spam-list entries, knowledge-base signals)
// and the corners of the syntax the rewrite has to get exactly right.
const PATTERNS = [
  '(a|a)*\\.html$', '/tag/', 'showthread\\.php\\?t=\\d+', '^https?://(www\\.)?Example\\.ORG/', '[a-f0-9]{8}', '[^a-z]+', '[^A-Z0-9_-]',
  '[-a]', '[a-]', '[\\d-z]', '[\\]a]', '[]a', 'x{a}', '\\bfoo\\B', '[\\b]', '\\x41\\u0062', '[\\x41-\\x43]', '\\cJ|\\cj', '[!-~]',
  '(?<Year>\\d{4})-q', '(?:Ab|cD)+?', '(?=aB)a', '(?<!X)y', '\\p\\P\\q', '\\k', 'phpbb\\d*_\\w+_(u|sid|k)=', '[Z-a]', '\\W\\S\\D', '.',
];
const ALPHABET = ['a', 'A', 'b', 'B', 'c', 'C', 'd', 'f', 'F', 'h', 'H', 't', 'T', 'm', 'l', 'L', 'k', 'K', 'q', 'p', 'P', 'x', 'X', 'y', 'Y', 'z', 'Z',
  'u', 'U', 'o', 'O', 's', 'S', 'i', 'I', 'r', 'R', 'e', 'E', 'g', 'G', 'n', 'N', 'w', 'W', 'v', 'V', 'j', 'J', 'Q',
  '0', '1', '9', '_', '-', '.', '/', ':', '?', '=', '!', '[', ']', '^', '`', '\\', ' ', '\n', '\b', '\u212a', '\u017f', '\u0131', 'é', 'É'];

test('a case-insensitive pattern rewritten without the i flag matches exactly the same strings', () => {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const strings = ['', 'http://Example.ORG/Tag/x', 'showThread.PHP?t=12', 'AbcD', 'YEAR', '2026-Q', 'aaaa.HTML', 'phpBB3_x_SID=1'];
  for (let n = 0; n < 3000; n++) {
    let s = '';
    for (let len = Math.floor(random() * 8); len > 0; len--) s += ALPHABET[Math.floor(random() * ALPHABET.length)];
    strings.push(s);
  }
  for (const pattern of PATTERNS) {
    const folded = foldAsciiCase(pattern);
    assert.notEqual(folded, null, `${pattern} is rewritten`);
    const reference = new RegExp(pattern, 'i');
    const rewritten = new RegExp(folded!);
    for (const s of strings) assert.equal(rewritten.test(s), reference.test(s), `${pattern} → ${folded} on ${JSON.stringify(s)}`);
  }
});

test('what cannot be rewritten exactly keeps the i flag, and an invalid pattern throws as before', () => {
  for (const pattern of ['é', '\\u00e9', '\\xe9', '(a)\\1', '\\08', '(?<n>a)\\k<n>', '[\\B]', '\\c1', '\\x4', '\\u{41}']) {
    assert.equal(foldAsciiCase(pattern), null, pattern);
    assert.equal(caseInsensitiveRegExp(pattern).flags, 'i', pattern);
  }
  assert.throws(() => caseInsensitiveRegExp('(a'), SyntaxError);
  assert.equal(caseInsensitiveRegExp('/Tag/').flags, '');
});

// In a process of its own: a pattern left on the backtracking engine blocks the thread for hours,
// which no test timeout can interrupt. Before, all three compiled with the i flag and timed out.
test('with bounded backtracking, the focus URL patterns, the spam list and knowledge-base signals answer at once on an exponential pattern', () => {
  const script = `
    const { boundRegExpBacktracking } = require('./worker/process/bounded-regexp.ts');
    const { compileUrlPatterns, compileSpamFilter } = require('./worker/analyze/index.ts');
    const { parseKnowledgeBase } = require('./worker/aah/kb-parser.ts');
    boundRegExpBacktracking();
    const url = 'http://example.org/' + 'a'.repeat(40) + '.htm';
    const scorer = compileUrlPatterns([{ pattern: '(A|a)*\\\\.HTML$', weight: 1 }]);
    const spam = compileSpamFilter(['re:(A|a)*\\\\.HTML$'], { includeDefaults: false });
    const kb = parseKnowledgeBase('<knowledge-base version="1"><application id="x" name="X" category="forum"><detect><url>(A|a)*\\\\.HTML$</url></detect></application></knowledge-base>');
    const signal = kb.ok ? kb.kb.applications[0].detection.signals[0] : null;
    if (!kb.ok) console.error(JSON.stringify(kb.errors));
    console.log(JSON.stringify({ score: scorer.score(url), blacklisted: spam.check(url).blacklisted, kb: kb.ok, signal: signal ? signal.pattern.test(url) : 'none' }));
  `;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL' });
  assert.equal(run.signal, null, 'the matches finished within 30 s');
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), { score: 0.5, blacklisted: false, kb: true, signal: false });
});
