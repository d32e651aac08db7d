'use client';
import { CheckboxField, Field, controlProps } from '../components/field';
import { useKnowledgeBases } from '../lib/client/aah';
import type { FieldErrors } from './icd-form-model';
import { SETTING_FIELDS, knowledgeBaseOptions, type SettingField, type SettingValues } from './settings-fields';

type Props = { values: SettingValues; errors: FieldErrors; onChange: (id: string, value: string | boolean) => void };

/** One setting's control, chosen by its kind. */
function SettingControl({ field, values, errors, onChange }: Props & { field: SettingField }) {
  const { id, kind } = field;
  if (kind.type === 'boolean') {
    return <CheckboxField id={id} label={field.label} checked={values[id] === true} onChange={(v) => onChange(id, v)} errors={errors[id]} />;
  }
  const common = {
    ...controlProps(id, errors[id], Boolean(field.hint)),
    value: String(values[id] ?? ''),
    className: kind.type === 'lines' ? 'input font-mono' : 'input',
    disabled: field.enabledBy !== undefined && values[field.enabledBy] !== true,
  };
  const change = (e: { target: { value: string } }) => onChange(id, e.target.value);
  return (
    <Field id={id} label={field.label} hint={field.hint} errors={errors[id]} className={kind.type === 'lines' ? 'md:col-span-2' : ''}>
      {kind.type === 'lines' && <textarea rows={3} {...common} onChange={change} />}
      {kind.type === 'number' && <input type="text" inputMode="decimal" {...common} onChange={change} />}
      {kind.type === 'text' && <input type="text" {...common} onChange={change} />}
      {kind.type === 'choice' && <ChoiceSelect options={kind.options} {...common} onChange={change} />}
      {kind.type === 'knowledgeBase' && <KnowledgeBaseSelect {...common} onChange={change} />}
    </Field>
  );
}

type SelectProps = ReturnType<typeof controlProps> & { value: string; className: string; disabled: boolean; onChange: (e: { target: { value: string } }) => void };

function ChoiceSelect({ options, ...props }: SelectProps & { options: readonly { value: string; label: string }[] }) {
  return (
    <select {...props}>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

/** The knowledge bases stored in the cockpit, the ICD's own choice kept even when it is not among them. */
function KnowledgeBaseSelect(props: SelectProps) {
  const stored = useKnowledgeBases();
  return <ChoiceSelect options={knowledgeBaseOptions(stored.data?.map((kb) => kb.name), props.value)} {...props} />;
}

/** Capture mode, recrawls, feeds and the knowledge base: shown with the rest of the form. */
export function CaptureSettings(props: Props) {
  return (
    <fieldset className="card grid gap-4 md:grid-cols-2">
      <legend className="px-1 text-lg font-semibold">Capture and recrawl</legend>
      {SETTING_FIELDS.filter((f) => f.group === 'capture').map((f) => (
        <SettingControl key={f.id} field={f} {...props} />
      ))}
    </fieldset>
  );
}

/** The engine's settings with sensible defaults, folded away; opened when one of them has an error. */
export function AdvancedSettings({ open, onToggle, ...props }: Props & { open: boolean; onToggle: (open: boolean) => void }) {
  const fields = SETTING_FIELDS.filter((f) => f.group === 'advanced');
  const headings = [...new Set(fields.map((f) => f.heading ?? ''))];
  return (
    <details className="card" open={open} onToggle={(e) => onToggle(e.currentTarget.open)} data-testid="advanced-settings">
      <summary className="cursor-pointer text-lg font-semibold">Advanced settings</summary>
      <div className="mt-4 space-y-5">
        {headings.map((heading) => (
          <fieldset key={heading} className="grid gap-4 md:grid-cols-3">
            <legend className="mb-1 text-sm font-semibold">{heading}</legend>
            {fields
              .filter((f) => (f.heading ?? '') === heading)
              .map((f) => (
                <SettingControl key={f.id} field={f} {...props} />
              ))}
          </fieldset>
        ))}
      </div>
    </details>
  );
}
