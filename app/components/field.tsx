import type { ReactNode } from 'react';

/**
 * A labelled form control with its hint and its inline errors. The control gets `id`,
 * `aria-invalid` and `aria-describedby` from `controlProps(id, errors)`.
 */
export function Field({
  id,
  label,
  hint,
  errors,
  children,
  className = '',
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  errors?: string[];
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {hint && <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">{hint}</p>}
      <FieldErrors id={id} errors={errors} />
    </div>
  );
}

export function FieldErrors({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <ul id={`${id}-error`} className="mt-1 space-y-0.5 text-sm text-red-700" data-testid={`error-${id}`}>
      {errors.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  );
}

/** Accessibility attributes tying a control to its hint and errors. */
export function controlProps(id: string, errors?: string[], hint?: boolean) {
  const describedBy = [hint ? `${id}-hint` : '', errors?.length ? `${id}-error` : ''].filter(Boolean).join(' ');
  return {
    id,
    name: id,
    'aria-invalid': errors?.length ? (true as const) : undefined,
    'aria-describedby': describedBy || undefined,
  };
}

/** A checkbox with its label on the right. */
export function CheckboxField({
  id,
  label,
  checked,
  onChange,
  errors,
}: {
  id: string;
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  errors?: string[];
}) {
  return (
    <div>
      <label htmlFor={id} className="flex items-center gap-2 text-sm font-medium">
        <input type="checkbox" className="h-4 w-4" {...controlProps(id, errors)} checked={checked} onChange={(e) => onChange(e.target.checked)} />
        {label}
      </label>
      <FieldErrors id={id} errors={errors} />
    </div>
  );
}
