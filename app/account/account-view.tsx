'use client';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../components/error-message';
import { Field, controlProps } from '../components/field';
import { ApiError, api } from '../lib/client/api';
import { useSession } from '../lib/client/session';

/** The signed-in user's account: change the password (the first admin's printed one, above all). */
export function AccountView() {
  const session = useSession();
  const [form, setForm] = useState({ currentPassword: '', newPassword: '', repeat: '' });
  const [mismatch, setMismatch] = useState(false);
  const change = useMutation({
    mutationFn: () => api<void>('POST', '/api/auth/password', { currentPassword: form.currentPassword, newPassword: form.newPassword }),
    onSuccess: () => setForm({ currentPassword: '', newPassword: '', repeat: '' }),
  });
  const issues = change.error instanceof ApiError ? change.error.issues : [];
  const errorsFor = (field: string) => issues.filter((i) => i.path[0] === field).map((i) => i.message);
  const repeatErrors = mismatch ? ['Not the same as the new password'] : [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const differs = form.newPassword !== form.repeat;
    setMismatch(differs);
    if (differs) document.getElementById('repeat')?.focus();
    else change.mutate();
  };
  const input = (id: keyof typeof form, errors: string[], autoComplete: string, hint = false) => ({
    ...controlProps(id, errors, hint),
    className: 'input',
    type: 'password',
    autoComplete,
    required: true,
    value: form[id],
    onChange: (e: { target: { value: string } }) => {
      setForm({ ...form, [id]: e.target.value });
      change.reset();
    },
  });
  return (
    <div className="max-w-xl space-y-6">
      <h1 className="text-2xl font-bold">Account</h1>
      <p className="text-sm text-slate-700">
        Signed in as <strong>{session.data?.username}</strong> ({session.data?.role}).
      </p>
      <form onSubmit={submit} noValidate className="card space-y-4" aria-label="Change your password">
        <h2 className="text-lg font-semibold">Change your password</h2>
        <Field id="currentPassword" label="Current password" errors={errorsFor('currentPassword')}>
          <input {...input('currentPassword', errorsFor('currentPassword'), 'current-password')} />
        </Field>
        <Field id="newPassword" label="New password" hint="At least 8 characters. Your other sessions end." errors={errorsFor('newPassword')}>
          <input {...input('newPassword', errorsFor('newPassword'), 'new-password', true)} />
        </Field>
        <Field id="repeat" label="New password again" errors={repeatErrors}>
          <input {...input('repeat', repeatErrors, 'new-password')} />
        </Field>
        <div className="flex items-center gap-3">
          <button type="submit" className="btn btn-primary" disabled={change.isPending}>Change password</button>
          {change.isSuccess && <span role="status" className="text-sm text-emerald-800">Password changed.</span>}
        </div>
        {!issues.length && <ErrorMessage error={change.error} />}
      </form>
    </div>
  );
}
