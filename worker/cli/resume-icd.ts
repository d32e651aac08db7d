import { ICD_NAME_MAX, icdSchema, type Icd } from '../icd/schema';
import type { z } from 'zod';
import { issueLines, plainIssueMessage } from '../icd/plain-issues';
import { fieldValue, refusedFields, repairStoredIcd, replacementLine, type FieldReplacement, type IcdRepair } from '../icd/stored-icd-repair';

/**
 * What a run on an `--out` that holds a crawl resumes with. The crawl keeps its stored ICD, except
 * the limits an archivist raises to go on: those come from this run, from its flags and from its
 * ICD file (read again), as a new crawl's would. Other settings given now are not used, and the
 * notice says so.
 */

/** The ICD fields a resume takes from this run: its limits, which a crawl that stopped on one is raised to go on. */
export const LIMIT_FIELDS = [
  ['scope', 'maxPages'],
  ['scope', 'maxBytes'],
  ['scope', 'maxDurationMinutes'],
  ['politeness', 'concurrency'],
  ['politeness', 'enabled'],
] as const;

/** The ICD fields this run sets: `{scope: {maxPages: 12}}`, say. */
export type IcdOverrides = { scope: Record<string, unknown>; politeness: Record<string, unknown> };

type Section = Record<string, unknown>;

const sameSeeds = (a: readonly string[], b: readonly string[]) => JSON.stringify([...new Set(a)].sort()) === JSON.stringify([...new Set(b)].sort());

/**
 * The limits a resume takes from this run. From an ICD file of the same seeds, every limit field as
 * the file (with the flags) gives it, defaults included: the file is what the archivist edited. Else
 * only what the flags set: a run from seeds alone would otherwise put back the defaults.
 */
export function resumeOverrides(given: Icd, fromFile: boolean, storedSeeds: readonly string[], flags: IcdOverrides): IcdOverrides {
  if (!fromFile || !sameSeeds(given.seeds, storedSeeds)) return flags;
  const taken: IcdOverrides = { scope: {}, politeness: {} };
  for (const [section, field] of LIMIT_FIELDS) taken[section][field] = (given[section] as Section)[field];
  return taken;
}

/** The stored ICD with `overrides` applied, parsed (a stored ICD may hold fields of an older version). */
export function withOverrides(stored: Record<string, unknown>, overrides: IcdOverrides): Icd {
  return icdSchema.parse({
    ...stored,
    scope: { ...(stored.scope as Section | undefined), ...overrides.scope },
    politeness: { ...(stored.politeness as Section | undefined), ...overrides.politeness },
  }, { error: plainIssueMessage });
}

/**
 * What a run says when the crawl stored in `out` has an ICD this version refuses and no ICD file was
 * given to correct it: a version that accepted it started the crawl, and rules made stricter since
 * refuse it (an exclude pattern that can backtrack, a weight over 1,000…). Without it, the run said
 * "Invalid ICD" of an ICD file or --seed it had been given, which were valid.
 */
export function storedIcdRefused(out: string, issues: readonly z.core.$ZodIssue[]): string {
  return `tidemark: the crawl in ${out} was started by an earlier version of Tidemark with settings this version refuses, so it cannot be resumed as it is:\n${issueLines(issues)}\nTo resume it, give an ICD file of its seeds with these settings corrected (tidemark crawl FILE --out ${out}): they replace the stored ones. Or choose another --out for a new crawl.`;
}

/**
 * The crawl stored in `out`, whose ICD this version refuses, repaired from the ICD file a run gives
 * (`given`, parsed with the run's flags): each refused field takes the file's value (repairStoredIcd),
 * every other setting stays as stored. The file must be of the same crawl: its seeds the stored
 * ones (but for a refused seed, which it corrects). Else what to say.
 */
export function repairFromIcdFile(out: string, stored: Record<string, unknown>, given: Icd, icdPath: string | undefined): Extract<IcdRepair, { repaired: unknown }> | { message: string } {
  const parsed = icdSchema.safeParse(stored, { error: plainIssueMessage });
  if (parsed.success) throw new Error('repairFromIcdFile: the stored ICD is accepted');
  const refused = refusedFields(stored);
  if (!icdPath) return { message: storedIcdRefused(out, parsed.error.issues) };
  const storedSeeds = Array.isArray(stored.seeds) ? stored.seeds.map(String) : [];
  if (!refused.some((r) => r.field === 'seeds') && !sameSeeds(given.seeds, storedSeeds)) {
    return { message: `tidemark: ${icdPath} is not an ICD of the crawl in ${out}: its seeds differ from the crawl's (${storedSeeds.join(' ')}). The settings this version refuses are replaced only from an ICD file of the crawl's seeds; choose another --out for a new crawl.` };
  }
  const corrections = Object.fromEntries(refused.map((r) => [r.field, fieldValue(given, r.field)]));
  const repair = repairStoredIcd(stored, corrections);
  if ('invalid' in repair) return { message: `tidemark: the crawl in ${out}, with the settings this version refuses taken from ${icdPath}, is still refused:\n${issueLines(repair.invalid)}` };
  if ('refused' in repair) return { message: `tidemark: the crawl in ${out} cannot take its refused settings from ${icdPath}: ${repair.refused}` };
  return repair;
}

/** What a run says of the refused settings it replaced from `icdPath`, on stderr. */
export function repairNotice(out: string, icdPath: string, replaced: readonly FieldReplacement[]): string {
  return `tidemark: the crawl in ${out} had settings this version refuses (an earlier version started it); resuming it with them replaced by ${icdPath}'s: ${replaced.map(replacementLine).join(', ')} (recorded with the crawl, in CrawlIcdReplacement)`;
}

/** What a resume says of the stored limits it replaced (`scope.maxBytes 1000 → 100000000`); null when none. */
export function replacedNotice(out: string, before: Icd, after: Icd): string | null {
  const changes = LIMIT_FIELDS.flatMap(([section, field]) => {
    const was = (before[section] as Section)[field];
    const now = (after[section] as Section)[field];
    return was === now ? [] : [`${section}.${field} ${String(was)} → ${String(now)}`];
  });
  return changes.length ? `tidemark: resuming the crawl in ${out} with ${changes.join(', ')} (the stored value replaced by this run's)` : null;
}

/**
 * Defaults an earlier version wrote into every crawl's stored ICD and this one changed: warc.gzipLevel
 * was 3 before fdc2a0e (2026-11-24). Such a crawl resumed by the same command said "other settings"
 * on every run, the run's ICD having the current default where the person had written nothing.
 */
const FORMER_DEFAULTS: readonly { section: 'warc'; field: 'gzipLevel'; was: number }[] = [{ section: 'warc', field: 'gzipLevel', was: 3 }];

let currentDefaults: Icd | undefined;

/**
 * `resumed` as compared with `given`: a field holding a former default (FORMER_DEFAULTS) where
 * `given` holds the current one takes `given`'s value. A file that writes the current default out
 * is then not told apart from one that does not: both ask for nothing the stored crawl lacks.
 */
function withoutFormerDefaults(resumed: Icd, given: Icd): Icd {
  currentDefaults ??= icdSchema.parse({ name: 'defaults', seeds: ['http://defaults.invalid/'] });
  const copy = structuredClone(resumed);
  for (const { section, field, was } of FORMER_DEFAULTS) {
    const now = currentDefaults[section][field];
    if (copy[section][field] === was && given[section][field] === now) copy[section][field] = now;
  }
  return copy;
}

/**
 * The name the CLI gives a crawl from seeds alone: by its first seed, so the same seeds in another
 * order name it otherwise; cut with an ellipsis to the longest name a crawl definition may have. A
 * long seed (a path in Japanese is nine characters a letter once escaped) made every such crawl
 * refused: "Invalid ICD: name: At most 200 characters", for a name nobody wrote.
 */
export function seedsCrawlName(firstSeed: string | undefined): string {
  const name = `CLI crawl of ${firstSeed}`;
  if (name.length <= ICD_NAME_MAX) return name;
  let cut = name.slice(0, ICD_NAME_MAX - 1);
  // Not between the two halves of a character beyond the BMP (an emoji).
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/**
 * An ICD as compared for a resume: seeds in any order, the limits (this run's) left out, and a name
 * the CLI derived from one of its seeds taken as any other such name (--seed B --seed A is the crawl
 * of --seed A --seed B).
 */
function comparable(icd: Icd): string {
  const copy = structuredClone(icd) as unknown as Record<string, Section>;
  for (const [section, field] of LIMIT_FIELDS) delete copy[section]![field];
  const derived = icd.seeds.some((seed) => icd.name === seedsCrawlName(seed));
  return JSON.stringify({ ...copy, name: derived ? seedsCrawlName('one of its seeds') : icd.name, seeds: [...new Set(icd.seeds)].sort() });
}

/**
 * What a run resuming the crawl stored in `out` (its ICD `resumed`, the stored one with this run's
 * limits) says when it was given another crawl (`given`: other seeds, or an ICD file that differs
 * in more than its limits): the stored one goes on, and the one given is not used. Null when they agree.
 */
export function resumeNotice(out: string, resumed: Icd, given: Icd): string | null {
  if (!sameSeeds(given.seeds, resumed.seeds)) {
    return `tidemark: ${out} holds a crawl of ${resumed.seeds.join(' ')}; resuming it (the seeds given now are not used; choose another --out for a new crawl)`;
  }
  if (comparable(given) !== comparable(withoutFormerDefaults(resumed, given))) {
    return `tidemark: ${out} holds a crawl of the same seeds with other settings; resuming it with its stored ICD (only its limits change it: scope.maxPages, scope.maxBytes, scope.maxDurationMinutes, politeness.concurrency and politeness.enabled, from the ICD file or --max-pages, --concurrency and --no-politeness; choose another --out for a new crawl)`;
  }
  return null;
}
