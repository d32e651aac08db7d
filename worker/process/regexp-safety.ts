import { caseInsensitiveRegExp, foldAsciiCase } from './case-insensitive-regexp';

/**
 * The one rule for the regular expressions users give Tidemark (ICD scope and URL patterns, spam-list
 * `re:` entries, live exclusions, knowledge-base `<url>` and `<header>` signals). They run on every
 * link, posted URL and page, on the crawl's or the cockpit's thread, against text a hostile site
 * chooses. Every Tidemark process lets V8 finish a match that backtracks too much on its linear-time
 * engine (bounded-regexp.ts), but that engine cannot run every pattern: one it cannot run backtracks
 * as long as it takes (`(.*)(.*)(.*)\1#` held the cockpit 68 s on a 600-character URL). So a pattern
 * is refused when it is too long, does not compile, has a repetition inside a repetition, has a
 * backreference, or cannot run on that engine and its backtracking, estimated from its shape, is not
 * shown small. No Node.js import: the cockpit's form runs this in the browser.
 */

/** Longest pattern: far more than a URL pattern needs; V8 refuses ~35,000 plain characters as too large. */
export const MAX_PATTERN_LENGTH = 5_000;

/** How a pattern is compiled where it runs, and what it is matched against. */
export interface PatternUse {
  /** Knowledge-base signals, focus URL patterns and spam-list entries ignore case. */
  caseInsensitive?: boolean;
  /** What the messages call the texts it runs on: `URL` unless said. */
  subject?: string;
}

/** Why `source` cannot be used as a pattern, as a sentence for the field that holds it; null when it can. */
export function patternProblem(source: string, use: PatternUse = {}): string | null {
  if (source.length > MAX_PATTERN_LENGTH) {
    return `A pattern has at most ${MAX_PATTERN_LENGTH.toLocaleString('en-US')} characters (this one has ${source.length.toLocaleString('en-US')})`;
  }
  const compiled = compileProblem(source, use);
  if (compiled !== null) return `Not a valid regular expression: ${compiled}`;
  return backtrackingProblem(source, use);
}

/**
 * Why `source` does not compile, in words (null when it does). It is run once: V8 compiles a
 * pattern when it first runs it, and only then refuses one too large (`new RegExp` took 60,000
 * x's, which then failed at every URL). MAX_PATTERN_LENGTH keeps far below the sizes seen refused,
 * but V8's limits are on what it compiles, not on the text. Archivists bring patterns from Heritrix
 * (Java's inline flags) and shell globs: those two get a hint.
 */
function compileProblem(source: string, use: PatternUse): string | null {
  try {
    (use.caseInsensitive ? caseInsensitiveRegExp(source) : new RegExp(source)).test('');
    return null;
  } catch (err) {
    const reason = (err as Error).message.replace(/^.*\/[a-z]*: /s, '');
    const said = reason.charAt(0).toLowerCase() + reason.slice(1);
    if (/^\(\?[a-z]+[):]/.test(source)) return `${said}: JavaScript has no inline flags such as (?i): write both cases, as [Pp][Dd][Ff]`;
    if (/^\*/.test(source)) return `${said}: a glob such as *.pdf is written \\.pdf$ here`;
    return said;
  }
}

/** A pattern's structure, as far as backtracking goes: every character matcher is an atom. */
type PatternNode =
  | { type: 'atom' }
  | { type: 'assertion'; atStart: boolean }
  | { type: 'backreference' }
  | { type: 'group'; alternatives: PatternNode[][]; lookaround: boolean }
  | { type: 'repeat'; min: number; max: number; text: string; body: PatternNode };

/**
 * Parses a pattern that compiles (without the `u` flag, with the web-compatibility syntax V8 takes:
 * `\8`, a `{` that starts no count, `\k` without named groups, a quantified lookahead).
 */
export function parsePattern(source: string): PatternNode[][] {
  const { captures, named } = countGroups(source);
  let i = 0;
  const disjunction = (): PatternNode[][] => {
    const alternatives = [alternative()];
    while (source[i] === '|') {
      i++;
      alternatives.push(alternative());
    }
    return alternatives;
  };
  const alternative = (): PatternNode[] => {
    const terms: PatternNode[] = [];
    while (i < source.length && source[i] !== '|' && source[i] !== ')') {
      const atom = atomAt();
      const at = i;
      const count = quantifierAt();
      terms.push(count ? { type: 'repeat', ...count, text: source.slice(at, i), body: atom } : atom);
    }
    return terms;
  };
  const atomAt = (): PatternNode => {
    const ch = source[i]!;
    if (ch === '(') {
      const lookaround = /^\(\?<?[=!]/.test(source.slice(i, i + 4));
      if (lookaround) i += source[i + 2] === '<' ? 4 : 3;
      else if (source.startsWith('(?:', i)) i += 3;
      else if (source.startsWith('(?<', i)) i = source.indexOf('>', i) + 1;
      else i++;
      const alternatives = disjunction();
      i++; // ')'
      return { type: 'group', alternatives, lookaround };
    }
    if (ch === '[') {
      i += source[i + 1] === '^' ? 2 : 1;
      while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
      i++;
      return { type: 'atom' };
    }
    if (ch === '^' || ch === '$') {
      i++;
      return { type: 'assertion', atStart: ch === '^' };
    }
    if (ch !== '\\') {
      i++;
      return { type: 'atom' };
    }
    const next = source[i + 1] ?? '';
    if (next === 'b' || next === 'B') {
      i += 2;
      return { type: 'assertion', atStart: false };
    }
    if (next === 'k' && named && source[i + 2] === '<') {
      i = source.indexOf('>', i) + 1;
      return { type: 'backreference' };
    }
    const digits = /^[1-9]\d*/.exec(source.slice(i + 1))?.[0];
    // \N names a group when the pattern has N groups; otherwise it is an octal or identity escape.
    if (digits !== undefined && Number(digits) <= captures) {
      i += 1 + digits.length;
      return { type: 'backreference' };
    }
    // Any other escape is one character or a class; what follows `\x`, `\u`, `\c` or an octal
    // escape's first digit parses as further characters, which matches the same shape.
    i += 2;
    return { type: 'atom' };
  };
  const quantifierAt = (): { min: number; max: number } | null => {
    const ch = source[i];
    let count: { min: number; max: number } | null = null;
    if (ch === '*' || ch === '+' || ch === '?') {
      i++;
      count = { min: ch === '+' ? 1 : 0, max: ch === '?' ? 1 : Infinity };
    } else if (ch === '{') {
      const braces = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
      if (braces) {
        i += braces[0].length;
        const min = Number(braces[1]);
        count = { min, max: braces[2] === undefined ? min : braces[3] === '' ? Infinity : Number(braces[3]) };
      }
    }
    if (count && source[i] === '?') i++; // lazy
    return count;
  };
  return disjunction();
}

/**
 * How many capturing groups `source` has (a `\N` up to that many is a backreference), whether one
 * is named, and how deep its groups nest.
 */
function countGroups(source: string): { captures: number; named: boolean; depth: number } {
  let captures = 0;
  let named = false;
  let depth = 0;
  let open = 0;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') i++;
    else if (ch === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
    } else if (ch === ')') open--;
    else if (ch === '(') {
      depth = Math.max(depth, ++open);
      if (source[i + 1] !== '?') captures++;
      else if (source[i + 2] === '<' && source[i + 3] !== '=' && source[i + 3] !== '!') {
        captures++;
        named = true;
      }
    }
  }
  return { captures, named, depth };
}

const each = (alternatives: PatternNode[][]): PatternNode[] => alternatives.flat();
const anyNode = (alternatives: PatternNode[][], test: (node: PatternNode) => boolean): boolean =>
  each(alternatives).some((node) => test(node) || (node.type === 'group' ? anyNode(node.alternatives, test) : node.type === 'repeat' && anyNode([[node.body]], test)));

/** Most repetitions nested in one another, through groups and lookarounds (safe-regex2's star height). */
function starHeight(alternatives: PatternNode[][]): number {
  let height = 0;
  for (const node of each(alternatives)) {
    if (node.type === 'group') height = Math.max(height, starHeight(node.alternatives));
    if (node.type === 'repeat') height = Math.max(height, 1 + starHeight([[node.body]]));
  }
  return height;
}

/**
 * V8's linear-time engine (experimental-compiler.cc, CanBeHandled, V8 11–12): no lookaround, no
 * backreference, no flag but g, m, s, y, and no count above 16, nor counts nested so that their
 * body is copied more than 16 times (a repetition's body is copied `max` times, or `min + 1` when
 * it has no maximum). The first count that is too large, else null; a test compares this with V8.
 */
function countTooLargeForLinearEngine(alternatives: PatternNode[][], copies = 1): string | null {
  const LIMIT = 16;
  for (const node of each(alternatives)) {
    if (node.type === 'group') {
      const inner = countTooLargeForLinearEngine(node.alternatives, copies);
      if (inner !== null) return inner;
    }
    if (node.type !== 'repeat') continue;
    if (node.min > LIMIT || (node.max !== Infinity && node.max > LIMIT)) return node.text;
    const nested = copies * (node.max === Infinity ? node.min + 1 : node.max);
    if (nested > LIMIT) return node.text;
    const inner = countTooLargeForLinearEngine([[node.body]], nested);
    if (inner !== null) return inner;
  }
  return null;
}

/** Whether V8's linear-time engine can run `source` compiled for `use` (see countTooLargeForLinearEngine). */
export function runsOnLinearEngine(source: string, use: PatternUse = {}): boolean {
  return linearEngineObstacles(source, parsePattern(source), use).length === 0;
}

/** What keeps a pattern off V8's linear-time engine, and what to do instead, in words; empty when nothing does. */
function linearEngineObstacles(source: string, tree: PatternNode[][], use: PatternUse): { what: string; instead: string }[] {
  const obstacles: { what: string; instead: string }[] = [];
  if (anyNode(tree, (node) => node.type === 'group' && node.lookaround)) {
    obstacles.push({ what: 'a lookaround ((?=…), (?!…), (?<=…) or (?<!…))', instead: 'write it without the lookaround' });
  }
  if (anyNode(tree, (node) => node.type === 'backreference')) obstacles.push({ what: 'a backreference', instead: 'write it without the backreference' });
  const count = countTooLargeForLinearEngine(tree);
  if (count !== null) obstacles.push({ what: `a count over 16 (${count})`, instead: 'use *, + or counts up to 16' });
  // That engine takes no `i` flag: a case-insensitive pattern runs on it only rewritten without it.
  if (use.caseInsensitive && foldAsciiCase(source) === null) {
    obstacles.push({ what: 'a character outside ASCII (or an octal escape) matched in either case', instead: 'write such a character with its cases as a class, [éÉ]' });
  }
  return obstacles;
}

/** The longest text a pattern runs on: the longest URL an ICD's maxUrlLength lets a crawl take. */
const LONGEST_SUBJECT = 65_536;
/**
 * Most backtracking steps a match may take on LONGEST_SUBJECT characters, by the estimate below:
 * linear in the text's length, with up to ~1,000 ways through the pattern at each position.
 */
const MAX_BACKTRACKING_STEPS = 2 ** 26;

/** Ways out of a part of a pattern (`ways`) and the steps spent inside it (`steps`) per way into it. */
interface Backtracking {
  ways: number;
  steps: number;
}

/**
 * An upper estimate of backtracking through `alternatives` on a text of `n` characters: a
 * repetition ends after any of its counts (n for an open-ended one), an alternation after any of
 * its branches, a sequence after every combination; a lookaround is matched once each time it is
 * reached, all its ways tried when it fails. Characters cost nothing: ways are what multiply.
 * `repeatsChoice` is set when a repetition repeats a part with several ways (exponential).
 * `atEnd`: nothing follows these alternatives in the pattern, so the first way out of them ends the
 * match (endingRepeat).
 */
function backtrackingOf(alternatives: PatternNode[][], n: number, found: { repeatsChoice: boolean }, atEnd = false): Backtracking {
  let ways = 0;
  let steps = 0;
  for (const sequence of alternatives) {
    let sequenceWays = 1;
    let sequenceSteps = 0;
    for (const [k, node] of sequence.entries()) {
      const inner = nodeBacktracking(node, n, found, atEnd && k === sequence.length - 1);
      sequenceSteps += sequenceWays * inner.steps;
      sequenceWays *= inner.ways;
    }
    ways += sequenceWays;
    steps += sequenceSteps;
  }
  return { ways, steps };
}

function nodeBacktracking(node: PatternNode, n: number, found: { repeatsChoice: boolean }, atEnd = false): Backtracking {
  if (node.type === 'group') {
    const inner = backtrackingOf(node.alternatives, n, found, atEnd && !node.lookaround);
    return node.lookaround ? { ways: 1, steps: inner.steps + inner.ways } : inner;
  }
  if (node.type !== 'repeat') return { ways: 1, steps: 0 };
  const body = nodeBacktracking(node.body, n, found);
  if (atEnd && body.ways === 1 && body.steps === 0) return endingRepeat(node, n);
  const most = Math.min(node.max, Math.max(n, node.min));
  if (body.ways === 1) return { ways: most - node.min + 1, steps: most * body.steps };
  if (node.max > 1) found.repeatsChoice = true;
  // Σ ways^k for k from min to most, and the steps of each count's prefixes.
  const r = body.ways;
  const sum = (from: number, to: number) => (Math.pow(r, to + 1) - Math.pow(r, from)) / (r - 1);
  return { ways: sum(node.min, most), steps: sum(0, most - 1) * body.steps };
}

/**
 * A repetition the pattern ends with, of a part matched one way only and without a lookaround
 * (`[0-9a-f]{32,}` in `[?&]sid=[0-9a-f]{32,}`): tried once each time it is reached. Its first count ends the match
 * (nothing follows that could fail), and when it fails (too few repeats) no other count can do
 * better, as each repeat matches one way or none. That try reads up to `min` repeats before it fails.
 */
function endingRepeat(node: PatternNode & { type: 'repeat' }, n: number): Backtracking {
  return { ways: 1, steps: Math.min(node.min, n) };
}

/** Whether every way through `alternatives` starts with `^`: V8 then tries the text's start alone. */
function anchoredAtStart(alternatives: PatternNode[][]): boolean {
  return alternatives.every(([first]) => first !== undefined && ((first.type === 'assertion' && first.atStart) || (first.type === 'group' && !first.lookaround && anchoredAtStart(first.alternatives))));
}

/** The estimated backtracking steps of a whole match attempt on `n` characters: each start position's. */
function matchSteps(tree: PatternNode[][], n: number, found: { repeatsChoice: boolean }): number {
  const { ways, steps } = backtrackingOf(tree, n, found, true);
  return (anchoredAtStart(tree) ? 1 : n) * (steps + ways);
}

/** Deepest nesting of groups this analyses (recursively: 2,500 levels overflowed the stack); no URL pattern comes near. */
const MAX_GROUP_DEPTH = 100;

/** Why `source`, which compiles, can backtrack too long; null when it cannot. */
function backtrackingProblem(source: string, use: PatternUse): string | null {
  const subjects = `${use.subject ?? 'URL'}s`;
  if (countGroups(source).depth > MAX_GROUP_DEPTH) return `Groups nest at most ${MAX_GROUP_DEPTH} deep in a pattern`;
  const tree = parsePattern(source);
  if (starHeight(tree) > 1) {
    return `This pattern can take exponential time on some ${subjects} (a repetition inside a repetition, such as (a+)+ or (.*)*): write it without the nesting`;
  }
  if (anyNode(tree, (node) => node.type === 'backreference')) {
    return `A backreference (\\1, \\k<name>) is not allowed: JavaScript cannot match one in linear time, and a pattern with one can take minutes on a single ${use.subject ?? 'URL'}`;
  }
  const obstacles = linearEngineObstacles(source, tree, use);
  if (obstacles.length === 0) return null;
  const found = { repeatsChoice: false };
  const steps = matchSteps(tree, LONGEST_SUBJECT, found);
  if (steps <= MAX_BACKTRACKING_STEPS) return null;
  const cause = `${obstacles.map((o) => o.what).join(' and ')} ${obstacles.length > 1 ? 'keep' : 'keeps'} it off JavaScript's linear-time engine`;
  const instead = obstacles.map((o) => o.instead).join(', or ');
  if (found.repeatsChoice) return `This pattern can take exponential time on some ${subjects}: ${cause}, and it repeats an alternation, such as (a|b)+: write it without the repeated alternation, or ${instead}`;
  return matchSteps(tree, 2 * LONGEST_SUBJECT, found) > 2.5 * steps
    ? `This pattern can take too long on long ${subjects}: ${cause}, and backtracking through it grows faster than the text's length: anchor it at the start with ^, use fewer *, + or {n,} repetitions, or ${instead}`
    : `This pattern can take too long on some ${subjects}: ${cause}, and its alternatives and counts multiply into more than a thousand ways to try at each position: use fewer, or ${instead}`;
}
