'use client';
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import type { IcdInput } from '../../worker/icd/schema';
import { EditConflictNotice } from '../components/edit-conflict-notice';
import { ErrorMessage, PageError } from '../components/error-message';
import { CheckboxField, Field, controlProps } from '../components/field';
import { ApiError } from '../lib/client/api';
import { editConflictOf, newestStored, readAgain, useEditConflict, type EditBasis } from '../lib/client/edit-conflict';
import { useIcd, useIcdSaving, useSaveIcd, type IcdRecord } from '../lib/client/queries';
import { useStartCrawlAndOpen } from '../lib/client/start-crawl';
import { useLeaveGuard } from '../lib/client/leave-guard';
import { hasUnsavedEdits } from '../lib/client/unsaved-edits';
import { useCan } from '../lib/client/session';
import { CrawlSchedule } from './crawl-schedule';
import { FocusFields } from './focus-fields';
import { formValuesFromIcd, icdFileName, icdFromJsonText, issuesFromApi, validateForm, type FieldErrors, type IcdFormValues } from './icd-form-model';
import { AdvancedSettings, CaptureSettings } from './setting-controls';
import { touchesAdvanced } from './settings-fields';
import { startCrawlPlan } from './start-crawl-plan';
import { TermReview } from './term-review';
import { useTopicTermEdits, type TopicTermEdits } from './topic-term-edits';
import { recordFromTerms, termsFromRecord, withTopicTerms } from './topic-terms';

/** New ICD (`id` null) or edit an existing one; then start a crawl of it. */
export function IcdEditor({ id }: { id: number | null }) {
  const icd = useIcd(id);
  if (id !== null && icd.isPending) return <p className="text-slate-600">Loading the crawl definition…</p>;
  if (id !== null && icd.isError) return <PageError error={icd.error} />;
  const definition = icd.data?.definition ?? null;
  return <IcdEditorLoaded id={id} name={icd.data?.name ?? ''} definition={definition} updatedAt={icd.data?.updatedAt ?? null} refetch={() => readAgain(icd.refetch)} />;
}

function IcdEditorLoaded({ id, name, definition, updatedAt, refetch }: { id: number | null; name: string; definition: IcdInput | null; updatedAt: string | null; refetch: () => Promise<IcdRecord> }) {
  // An ICD file loaded into the form (not saved until Create / Save); `n` remounts the form.
  const [loaded, setLoaded] = useState<{ icd: IcdInput; file: string; n: number } | null>(null);
  const mayDesign = useCan('design');
  const storedTerms = definition?.focus?.topicTerms;
  const termEdits = useTopicTermEdits(storedTerms);
  const [basedOn, setBasedOn] = useState(updatedAt);
  // "Reload theirs": the stored definition replaces every edit of the page (the form remounts, `n`).
  const [reloaded, setReloaded] = useState<{ n: number; value: IcdInput; updatedAt: string } | null>(null);
  const reload = useMutation({
    mutationFn: refetch,
    onSuccess: (fresh) => {
      setLoaded(null);
      termEdits.discard();
      setBasedOn(fresh.updatedAt);
      setReloaded((r) => ({ n: (r?.n ?? 0) + 1, value: fresh.definition, updatedAt: fresh.updatedAt }));
    },
  });
  const stored = newestStored({ value: definition, updatedAt }, reloaded);
  const version: EditBasis = { basedOn, saved: setBasedOn, reload: () => reload.mutate(), reloading: reload.isPending };
  // On an existing ICD the term review alone saves topic terms: a loaded file's go to it (shown,
  // unsaved), and the form's base keeps the stored ones, so a form save never puts back older
  // terms over terms saved since the file was loaded.
  const fileTerms = loaded?.icd.focus?.topicTerms;
  const onLoad = (icd: IcdInput, file: string) => {
    setLoaded((l) => ({ icd, file, n: (l?.n ?? 0) + 1 }));
    const terms = icd.focus?.topicTerms;
    if (id !== null && terms) termEdits.edit(() => termsFromRecord(terms));
  };
  const base = loaded && id !== null ? withTopicTerms(loaded.icd, storedTerms ?? {}) : (loaded?.icd ?? stored);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-baseline gap-4">
        <h1 className="text-2xl font-bold">{id === null ? 'New crawl definition' : <>{mayDesign ? 'Edit ' : ''}“<bdi>{name}</bdi>”</>}</h1>
        {definition && <DownloadIcd name={name} definition={definition} />}
      </div>
      {mayDesign && <LoadIcdFile onLoad={onLoad} />}
      {loaded && (
        <p role="status" className="text-sm text-emerald-800">
          Loaded from {loaded.file}: review it, then {id === null ? 'create' : 'save'} it.
          {id !== null && fileTerms && ' Its topic terms are in the term review below, not saved yet.'}
        </p>
      )}
      <ErrorMessage error={reload.error} />
      <IcdForm key={`${id ?? 'new'}-${loaded?.n ?? 0}-${reloaded?.n ?? 0}`} id={id} base={base} fromFile={loaded !== null} termEdits={termEdits} version={version} />
      {id !== null && definition && <TermReview icdId={id} definition={definition} edits={termEdits} version={version} />}
      {id !== null && <CrawlSchedule icdId={id} />}
    </div>
  );
}

/** The saved definition as a JSON file, for `npx tidemark crawl <file>` or another cockpit. */
function DownloadIcd({ name, definition }: { name: string; definition: IcdInput }) {
  const download = () => {
    const url = URL.createObjectURL(new Blob([JSON.stringify(definition, null, 2) + '\n'], { type: 'application/json' }));
    const a = Object.assign(document.createElement('a'), { href: url, download: icdFileName(name) });
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <button type="button" className="link text-sm" onClick={download} data-testid="download-icd">
      Download as JSON
    </button>
  );
}

/** Loads an ICD file into the form; a file that is not JSON or not a valid ICD is refused with the reasons. */
function LoadIcdFile({ onLoad }: { onLoad: (icd: IcdInput, file: string) => void }) {
  const [errors, setErrors] = useState<string[]>([]);
  const load = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same file may be chosen again after fixing it
    if (!file) return;
    const result = icdFromJsonText(await file.text());
    setErrors('errors' in result ? result.errors.map((e) => `${file.name}: ${e}`) : []);
    // The file replaces the whole form (and the term review's edits if it has terms): ask, as leaving would.
    if ('icd' in result && (!hasUnsavedEdits() || window.confirm(`Loading ${file.name} replaces the unsaved edits of this page. Load it and lose them?`))) onLoad(result.icd, file.name);
  };
  return (
    <div>
      <label htmlFor="icd-file" className="mr-2 text-sm">Load an ICD file (JSON)</label>
      <input id="icd-file" type="file" accept="application/json,.json" className="text-sm" onChange={load} aria-describedby={errors.length ? 'icd-file-error' : undefined} />
      {errors.length > 0 && (
        <ul id="icd-file-error" role="alert" className="mt-1 space-y-0.5 text-sm text-red-700" data-testid="icd-file-errors">
          {errors.map((e) => <li key={e}>{e}</li>)}
        </ul>
      )}
    </div>
  );
}

function IcdForm({ id, base, fromFile = false, termEdits, version }: { id: number | null; base: IcdInput | null; fromFile?: boolean; termEdits: TopicTermEdits; version: EditBasis }) {
  const router = useRouter();
  const save = useSaveIcd();
  const saving = useIcdSaving();
  const start = useStartCrawlAndOpen();
  const mayDesign = useCan('design');
  const mayRun = useCan('run');
  const [values, setValues] = useState<IcdFormValues>(() => formValuesFromIcd(base));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [tried, setTried] = useState(false);
  const [saved, setSaved] = useState(false);
  // Edited since loaded or last saved (a loaded ICD file counts as an edit until saved).
  const [edited, setEdited] = useState(fromFile);
  useLeaveGuard(edited);
  const [advancedOpen, setAdvancedOpen] = useState(false);
  // A save refused because the ICD was saved elsewhere meanwhile; `withTerms` as it was asked.
  const conflict = useEditConflict<{ withTerms: boolean }>(version.basedOn);

  const update = (patch: Partial<IcdFormValues>) => {
    const next = { ...values, ...patch };
    setValues(next);
    setSaved(false);
    setEdited(true);
    // After a first attempt, errors follow the typing so they disappear as fields are fixed.
    if (tried) setErrors(validateForm(next, base).errors);
  };

  /** Shows `found` and moves the focus to the first field in error (opening "Advanced" if needed). */
  const showErrors = (found: FieldErrors) => {
    setErrors(found);
    const ids = Object.keys(found);
    if (!ids.length) return;
    if (touchesAdvanced(ids)) setAdvancedOpen(true);
    // After the render that opens the section: a control inside a closed <details> takes no focus.
    requestAnimationFrame(() => document.getElementById(ids[0] === 'form' ? 'icd-form-errors' : ids[0]!)?.focus());
  };

  /**
   * Validates and saves the form, with the term review's terms when `withTerms` (one save, so
   * neither overwrites the other), over the stored version `basedOn`; `then` runs once it is saved.
   */
  const saveForm = (then?: () => void, withTerms = false, basedOn = version.basedOn) => {
    setTried(true);
    const result = validateForm(values, base);
    showErrors(result.errors);
    if (Object.keys(result.errors).length) return;
    save.mutate(
      { id, icd: withTerms ? withTopicTerms(result.icd, recordFromTerms(termEdits.terms)) : result.icd, basedOn },
      {
        onSuccess: (record) => {
          version.saved(record.updatedAt);
          setSaved(true);
          setEdited(false);
          if (then) then();
          else if (id === null) router.push(`/icds/${record.id}?created=1`);
        },
        onError: (error) => {
          if (conflict.caught(error, { withTerms })) return;
          if (fieldIssues(error)) showErrors(issuesFromApi(error.issues, values));
        },
      },
    );
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    saveForm();
  };

  const setting = (id: string, value: string | boolean) => update({ settings: { ...values.settings, [id]: value } });

  // A crawl runs the saved definition: edits not saved yet, the form's and the term review's, are
  // saved first (they were silently left out, and the page left without asking).
  const plan = startCrawlPlan({ formEdited: edited, termsUnsaved: termEdits.unsaved, mayDesign });
  const startCrawl = () => {
    if (id === null) return;
    // A knowledge base the definition names that is not stored: said at its select.
    const go = () => start.start(id, (error) => {
      if (fieldIssues(error)) showErrors(issuesFromApi(error.issues));
    });
    if (plan.saveForm || plan.saveTerms) saveForm(go, plan.saveTerms);
    else go();
  };

  const text = (key: keyof IcdFormValues, hint = false) => ({
    ...controlProps(key, errors[key], hint),
    value: values[key] as string,
    onChange: (e: { target: { value: string } }) => update({ [key]: e.target.value } as Partial<IcdFormValues>),
  });
  const formErrors = errors.form ?? [];
  const errorCount = Object.values(errors).reduce((n, list) => n + list.length, 0);

  return (
    <form onSubmit={submit} noValidate className="space-y-6" aria-label="Crawl definition" data-testid="icd-form">
      {errorCount > 0 && (
        <div id="icd-form-errors" tabIndex={-1} role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          {errorCount === 1 ? 'One field needs attention' : `${errorCount} problems need attention`}; see the messages next to the fields.
          {formErrors.length > 0 && <ul className="mt-1 list-disc pl-5">{formErrors.map((m) => <li key={m}>{m}</li>)}</ul>}
        </div>
      )}
      {/* A role that may not change definitions reads the form: every field and its Add/Remove disabled (group-disabled:hidden), so nothing can be edited only to be lost. */}
      <fieldset disabled={!mayDesign} className="group space-y-6" data-testid="icd-fields">
      <fieldset className="card grid gap-4 md:grid-cols-2">
        <legend className="px-1 text-lg font-semibold">Crawl</legend>
        <Field id="name" label="Name" errors={errors.name}>
          <input className="input" {...text('name')} required />
        </Field>
        <Field id="userAgent" label="User agent" errors={errors.userAgent} hint="Name the archive and a contact, so site owners can reach you.">
          <input className="input" {...text('userAgent', true)} />
        </Field>
        <CheckboxField id="cookies" label="Keep cookies the sites set" checked={values.cookies} onChange={(v) => update({ cookies: v })} errors={errors.cookies} />
        <Field id="seeds" label="Seed URLs" hint="One URL per line, or several on a line separated by a comma and a space." errors={errors.seeds} className="md:col-span-2">
          <textarea className="input font-mono" rows={3} {...text('seeds', true)} />
        </Field>
        <Field id="description" label="Description" errors={errors.description} className="md:col-span-2">
          <textarea className="input" rows={2} {...text('description')} />
        </Field>
      </fieldset>

      <fieldset className="card grid gap-4 md:grid-cols-3">
        <legend className="px-1 text-lg font-semibold">Scope</legend>
        <Field id="allowedHosts" label="Allowed hosts" hint="Besides the seeds' hosts; one per line, e.g. media.example.org (a URL counts as its host)." errors={errors.allowedHosts}>
          <textarea className="input font-mono" rows={3} {...text('allowedHosts', true)} />
        </Field>
        <Field id="include" label="Include patterns" hint="Regular expressions; one per line." errors={errors.include}>
          <textarea className="input font-mono" rows={3} {...text('include', true)} />
        </Field>
        <Field id="exclude" label="Exclude patterns" hint="Regular expressions; one per line." errors={errors.exclude}>
          <textarea className="input font-mono" rows={3} {...text('exclude', true)} />
        </Field>
        <Field id="maxDepth" label="Max depth" errors={errors.maxDepth}>
          <input className="input" type="text" inputMode="decimal" {...text('maxDepth')} />
        </Field>
        <Field id="maxPages" label="Max pages" errors={errors.maxPages}>
          <input className="input" type="text" inputMode="decimal" {...text('maxPages')} />
        </Field>
        <Field id="maxPagesPerHost" label="Pages per host (budget)" errors={errors.maxPagesPerHost}>
          <input className="input" type="text" inputMode="decimal" {...text('maxPagesPerHost')} />
        </Field>
      </fieldset>

      <fieldset className="card grid gap-4 md:grid-cols-3">
        <legend className="px-1 text-lg font-semibold">Politeness</legend>
        <CheckboxField id="respectRobots" label="Respect robots.txt" checked={values.respectRobots} onChange={(v) => update({ respectRobots: v })} errors={errors.respectRobots} />
        <Field id="minDelayMs" label="Min delay between requests to a host (ms)" errors={errors.minDelayMs}>
          <input className="input" type="text" inputMode="decimal" {...text('minDelayMs')} />
        </Field>
        <Field id="maxDelayMs" label="Max delay (ms)" errors={errors.maxDelayMs}>
          <input className="input" type="text" inputMode="decimal" {...text('maxDelayMs')} />
        </Field>
      </fieldset>

      <CaptureSettings values={values.settings} errors={errors} onChange={setting} />

      <FocusFields values={values} errors={errors} update={update} />

      <AdvancedSettings values={values.settings} errors={errors} onChange={setting} open={advancedOpen} onToggle={setAdvancedOpen} />
      </fieldset>

      <div className="flex flex-wrap items-center gap-3">
        {mayDesign && (
          <button type="submit" className="btn btn-primary" disabled={saving}>
            {save.isPending ? 'Saving…' : id === null ? 'Create' : 'Save'}
          </button>
        )}
        {id !== null && mayRun && (
          <button type="button" className="btn" onClick={startCrawl} disabled={start.busy || saving} data-testid="start-crawl">
            {start.busy ? 'Starting…' : plan.label}
          </button>
        )}
        <Link href="/icds" className="link text-sm">Back to the definitions</Link>
        {saved && <span role="status" className="text-sm text-emerald-800">Saved.</span>}
        {!mayDesign && <span className="text-sm text-slate-600">Your role may view but not change crawl definitions.</span>}
      </div>
      <EditConflictNotice what="crawl definition" conflict={conflict.shown} busy={saving || version.reloading} onReload={version.reload} onOverwrite={(c) => saveForm(undefined, c.withTerms, c.updatedAt)} />
      <ErrorMessage error={save.error && !editConflictOf(save.error) && !fieldIssues(save.error) ? save.error : null} />
      <ErrorMessage error={fieldIssues(start.error) ? null : start.error} />
    </form>
  );
}

/** A 400 whose issues name fields of the form: shown at those fields rather than under the buttons. */
function fieldIssues(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 400 && error.issues.length > 0;
}
