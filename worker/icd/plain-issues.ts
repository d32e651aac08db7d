import type { z } from 'zod';

const plural = (n: number | bigint, one: string, many: string) => (Number(n) === 1 ? one : `${n} ${many}`);

/** The types a field may expect, as the person writing an ICD (JSON) reads them. */
const TYPE_WORDS: Record<string, string> = {
  array: 'a list',
  object: 'an object ({…})',
  string: 'text',
  boolean: 'a boolean (true or false)',
};

/** What a wrong value is, in the same words. */
function valueWords(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'a list';
  if (typeof input === 'string') return 'text';
  return `${typeof input === 'object' ? 'an' : 'a'} ${typeof input}`;
}

/**
 * zod's default messages ("Too small: expected number to be >=0", "Invalid input: expected int,
 * received number") in words for the person filling in a form or writing an ICD file. Pass it as
 * the `error` option of a parse: messages a schema gives itself take precedence, and issues it
 * does not know (undefined) keep zod's wording.
 */
export function plainIssueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === 'int') return 'A whole number (no decimals)';
      if (issue.expected === 'number') return Number.isNaN(issue.input) ? 'Not a number: use digits, and a point for decimals' : 'A number';
      if (issue.input === undefined) return 'Required';
      return `Must be ${TYPE_WORDS[issue.expected] ?? `a ${issue.expected}`}, not ${valueWords(issue.input)}`;
    case 'too_small': {
      const min = issue.minimum;
      if (issue.origin === 'number' || issue.origin === 'int') return issue.inclusive === false ? `More than ${min}` : `At least ${min}`;
      if (issue.origin === 'string') return Number(min) === 1 ? 'Required' : `At least ${min} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `At least ${plural(min, 'one entry', 'entries')}`;
      return undefined;
    }
    case 'too_big': {
      const max = issue.maximum;
      if (issue.origin === 'number' || issue.origin === 'int') return issue.inclusive === false ? `Less than ${max}` : `At most ${max}`;
      if (issue.origin === 'string') return `At most ${plural(max, 'one character', 'characters')}`;
      if (issue.origin === 'array' || issue.origin === 'set') return `At most ${plural(max, 'one entry', 'entries')}`;
      return undefined;
    }
    case 'invalid_value':
      return `One of: ${issue.values.map(String).join(', ')}`;
    case 'unrecognized_keys':
      return `Unknown ${issue.keys.length === 1 ? 'field' : 'fields'}: ${issue.keys.join(', ')}`;
    default:
      return undefined;
  }
}

/** An ICD's issues one a line, indented, each at its field (`  scope.exclude.0: …`), as the CLI prints them. */
export function issueLines(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`).join('\n');
}
