'use client';
import { CheckboxField, Field, FieldErrors, controlProps } from '../components/field';
import {
  ENTITY_TYPES,
  MODULES,
  MODULE_LABELS,
  UPDATE_FUNCTIONS,
  type EntityRow,
  type FieldErrors as Errors,
  type IcdFormValues,
  type KeywordRow,
  type UrlPatternRow,
} from './icd-form-model';

type Update = (patch: Partial<IcdFormValues>) => void;

/** The ICD's semantic part (ARCOMEM): what the archivist cares about and how links are prioritised. */
export function FocusFields({ values, errors, update }: { values: IcdFormValues; errors: Errors; update: Update }) {
  const text = (key: keyof IcdFormValues, hint = false) => ({
    ...controlProps(key, errors[key], hint),
    value: values[key] as string,
    onChange: (e: { target: { value: string } }) => update({ [key]: e.target.value } as Partial<IcdFormValues>),
  });
  return (
    <fieldset className="card space-y-5">
      <legend className="px-1 text-lg font-semibold">Focus (relevance-guided crawling)</legend>
      <CheckboxField id="focusEnabled" label="Prioritise links by relevance to the topic below" checked={values.focusEnabled} onChange={(v) => update({ focusEnabled: v })} errors={errors.focusEnabled} />

      <div className="grid gap-5 lg:grid-cols-2">
        <KeywordsEditor rows={values.keywords} errors={errors} onChange={(keywords) => update({ keywords })} />
        <EntitiesEditor rows={values.entities} errors={errors} onChange={(entities) => update({ entities })} />
        <Field id="topics" label="Topics" hint="Free text, one topic per line." errors={errors.topics}>
          <textarea className="input" rows={3} {...text('topics', true)} />
        </Field>
        <Field id="blacklist" label="Blacklist" hint="Spam hosts or URL patterns, one per line (added to the shipped list)." errors={errors.blacklist}>
          <textarea className="input font-mono" rows={3} {...text('blacklist', true)} />
        </Field>
        <UrlPatternsEditor rows={values.urlPatterns} errors={errors} onChange={(urlPatterns) => update({ urlPatterns })} />
        <fieldset>
          <legend className="mb-1 text-sm font-semibold">Module weights</legend>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
            {MODULES.map((m) => (
              <Field key={m} id={`moduleWeights.${m}`} label={MODULE_LABELS[m]} errors={errors[`moduleWeights.${m}`]}>
                <input
                  className="input"
                  type="text"
                  inputMode="decimal"
                  {...controlProps(`moduleWeights.${m}`, errors[`moduleWeights.${m}`])}
                  value={values.moduleWeights[m]}
                  onChange={(e) => update({ moduleWeights: { ...values.moduleWeights, [m]: e.target.value } })}
                />
              </Field>
            ))}
          </div>
        </fieldset>
      </div>

      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Field id="updateFunction" label="Priority update function" hint="How a queued URL's priority changes when it is found again." errors={errors.updateFunction}>
          <select className="input" {...text('updateFunction', true)}>
            {UPDATE_FUNCTIONS.map((f) => <option key={f} value={f}>{f}</option>)}
          </select>
        </Field>
        <div className="space-y-2">
          <CheckboxField id="batchEnabled" label="Batch prioritisation" checked={values.batchEnabled} onChange={(v) => update({ batchEnabled: v })} errors={errors.batchEnabled} />
          <Field id="batchBl" label="URLs per host queue at once (bl)" errors={errors.batchBl}>
            <input className="input" type="text" inputMode="decimal" {...text('batchBl')} />
          </Field>
        </div>
        <Field id="relevanceThreshold" label="Relevance threshold" hint="Cosine similarity above which a page counts as relevant (harvest ratio)." errors={errors.relevanceThreshold}>
          <input className="input" type="text" inputMode="decimal" {...text('relevanceThreshold', true)} />
        </Field>
        <Field id="relevanceWindow" label="Relevance window (documents)" hint="Documents per point of the relevance chart." errors={errors.relevanceWindow}>
          <input className="input" type="text" inputMode="decimal" {...text('relevanceWindow', true)} />
        </Field>
        <Field id="language" label="Language (ISO 639-3)" hint="e.g. eng, fra, deu: stop words and stemming for every page. Empty: detected per site section (host, or /en/-like first path segment) until three pages agree." errors={errors.language}>
          <input className="input" maxLength={3} placeholder="detect" {...text('language', true)} />
        </Field>
        <Field id="referencePages" label="Reference crawl: max pages" errors={errors.referencePages}>
          <input className="input" type="text" inputMode="decimal" {...text('referencePages')} />
        </Field>
        <Field id="referenceDepth" label="Reference crawl: max depth" errors={errors.referenceDepth}>
          <input className="input" type="text" inputMode="decimal" {...text('referenceDepth')} />
        </Field>
      </div>
    </fieldset>
  );
}

function RowButtons({ onRemove, label }: { onRemove: () => void; label: string }) {
  return (
    <button type="button" className="btn btn-danger self-start group-disabled:hidden" onClick={onRemove} aria-label={label}>
      Remove
    </button>
  );
}

function KeywordsEditor({ rows, errors, onChange }: { rows: KeywordRow[]; errors: Errors; onChange: (rows: KeywordRow[]) => void }) {
  const set = (i: number, patch: Partial<KeywordRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset data-testid="keywords">
      <legend className="mb-1 text-sm font-semibold">Keywords and weights</legend>
      <FieldErrors id="keywords" errors={errors.keywords} />
      <ul className="space-y-2">
        {rows.map((row, i) => (
          <li key={i} className="flex flex-wrap gap-2">
            <div className="flex-1">
              <label htmlFor={`keywords.${i}.term`} className="sr-only">Keyword {i + 1}</label>
              <input className="input" placeholder="keyword" {...controlProps(`keywords.${i}.term`, errors[`keywords.${i}.term`])} value={row.term} onChange={(e) => set(i, { term: e.target.value })} />
              <FieldErrors id={`keywords.${i}.term`} errors={errors[`keywords.${i}.term`]} />
            </div>
            <div className="w-24">
              <label htmlFor={`keywords.${i}.weight`} className="sr-only">Weight of keyword {i + 1}</label>
              <input className="input" type="text" inputMode="decimal" placeholder="1" {...controlProps(`keywords.${i}.weight`, errors[`keywords.${i}.weight`])} value={row.weight} onChange={(e) => set(i, { weight: e.target.value })} />
              <FieldErrors id={`keywords.${i}.weight`} errors={errors[`keywords.${i}.weight`]} />
            </div>
            <RowButtons label={`Remove keyword ${row.term || i + 1}`} onRemove={() => onChange(rows.filter((_, j) => j !== i))} />
          </li>
        ))}
      </ul>
      <button type="button" className="btn mt-2 group-disabled:hidden" onClick={() => onChange([...rows, { term: '', weight: '1' }])}>Add keyword</button>
    </fieldset>
  );
}

function EntitiesEditor({ rows, errors, onChange }: { rows: EntityRow[]; errors: Errors; onChange: (rows: EntityRow[]) => void }) {
  const set = (i: number, patch: Partial<EntityRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset data-testid="entities">
      <legend className="mb-1 text-sm font-semibold">Entities</legend>
      <FieldErrors id="entities" errors={errors.entities} />
      <ul className="space-y-2">
        {rows.map((row, i) => (
          <li key={i} className="grid grid-cols-[1fr_8rem] gap-2 rounded border border-slate-200 p-2 sm:grid-cols-[1fr_9rem_1fr_auto]">
            <div>
              <label htmlFor={`entities.${i}.name`} className="text-xs">Name<span className="sr-only"> of entity {i + 1}</span></label>
              <input className="input" {...controlProps(`entities.${i}.name`, errors[`entities.${i}.name`])} value={row.name} onChange={(e) => set(i, { name: e.target.value })} />
              <FieldErrors id={`entities.${i}.name`} errors={errors[`entities.${i}.name`]} />
            </div>
            <div>
              <label htmlFor={`entities.${i}.type`} className="text-xs">Type<span className="sr-only"> of entity {i + 1}</span></label>
              <select className="input" {...controlProps(`entities.${i}.type`, errors[`entities.${i}.type`])} value={row.type} onChange={(e) => set(i, { type: e.target.value })}>
                {ENTITY_TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
              </select>
              <FieldErrors id={`entities.${i}.type`} errors={errors[`entities.${i}.type`]} />
            </div>
            <div>
              <label htmlFor={`entities.${i}.aliases`} className="text-xs">Aliases<span className="sr-only"> of entity {i + 1}</span> (one per line)</label>
              <textarea className="input" rows={2} {...controlProps(`entities.${i}.aliases`, errors[`entities.${i}.aliases`])} value={row.aliases} onChange={(e) => set(i, { aliases: e.target.value })} />
              <FieldErrors id={`entities.${i}.aliases`} errors={errors[`entities.${i}.aliases`]} />
            </div>
            <RowButtons label={`Remove entity ${row.name || i + 1}`} onRemove={() => onChange(rows.filter((_, j) => j !== i))} />
          </li>
        ))}
      </ul>
      <button type="button" className="btn mt-2 group-disabled:hidden" onClick={() => onChange([...rows, { name: '', type: 'organisation', aliases: '' }])}>Add entity</button>
    </fieldset>
  );
}

function UrlPatternsEditor({ rows, errors, onChange }: { rows: UrlPatternRow[]; errors: Errors; onChange: (rows: UrlPatternRow[]) => void }) {
  const set = (i: number, patch: Partial<UrlPatternRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset data-testid="url-patterns">
      <legend className="mb-1 text-sm font-semibold">URL patterns (regex, weight −1…1)</legend>
      <FieldErrors id="urlPatterns" errors={errors.urlPatterns} />
      <ul className="space-y-2">
        {rows.map((row, i) => (
          <li key={i} className="flex flex-wrap gap-2">
            <div className="flex-1">
              <label htmlFor={`urlPatterns.${i}.pattern`} className="sr-only">URL pattern {i + 1}</label>
              <input className="input font-mono" placeholder="/news/" {...controlProps(`urlPatterns.${i}.pattern`, errors[`urlPatterns.${i}.pattern`])} value={row.pattern} onChange={(e) => set(i, { pattern: e.target.value })} />
              <FieldErrors id={`urlPatterns.${i}.pattern`} errors={errors[`urlPatterns.${i}.pattern`]} />
            </div>
            <div className="w-24">
              <label htmlFor={`urlPatterns.${i}.weight`} className="sr-only">Weight of URL pattern {i + 1}</label>
              <input className="input" type="text" inputMode="decimal" {...controlProps(`urlPatterns.${i}.weight`, errors[`urlPatterns.${i}.weight`])} value={row.weight} onChange={(e) => set(i, { weight: e.target.value })} />
              <FieldErrors id={`urlPatterns.${i}.weight`} errors={errors[`urlPatterns.${i}.weight`]} />
            </div>
            <RowButtons label={`Remove URL pattern ${i + 1}`} onRemove={() => onChange(rows.filter((_, j) => j !== i))} />
          </li>
        ))}
      </ul>
      <button type="button" className="btn mt-2 group-disabled:hidden" onClick={() => onChange([...rows, { pattern: '', weight: '0.5' }])}>Add URL pattern</button>
    </fieldset>
  );
}
