import { ZodError } from 'zod';
import { icdSchema, type Icd } from './schema';
import { plainIssueMessage } from './plain-issues';
import { UNKNOWN_FIELD, unknownKeys } from './unknown-keys';
import { focusSettingProblems } from './focus-settings';
import { keywordsWithoutTerms } from './keyword-terms';

/**
 * An ICD a person wrote (a file, the CLI's flags, an API request): parsed as the schema says; a
 * field the schema does not know is an error rather than silently replaced by its default, and so
 * are focus settings that can never work (focusSettingProblems, keywordsWithoutTerms).
 */
export function parseUserIcd(input: unknown): Icd {
  const icd = icdSchema.parse(input, { error: plainIssueMessage });
  const unknown = unknownKeys(input, icd);
  if (unknown.length) throw new ZodError(unknown.map((path) => ({ code: 'custom', path: path.split('.'), message: UNKNOWN_FIELD, input: undefined })));
  const problems = [...focusSettingProblems(icd.focus), ...keywordsWithoutTerms(icd.focus)];
  if (problems.length) throw new ZodError(problems.map(({ path, message }) => ({ code: 'custom', path, message, input: undefined })));
  return icd;
}
