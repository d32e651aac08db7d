'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ROLES } from '../../worker/auth/roles';
import { ErrorMessage } from '../components/error-message';
import { Field, controlProps } from '../components/field';
import { api, ApiError } from '../lib/client/api';
import { formatDate } from '../lib/client/queries';
import { useCan } from '../lib/client/session';

interface UserRow {
  id: number;
  username: string;
  role: string;
  createdAt?: string;
}

const ROLE_HELP: Record<string, string> = {
  archivist: 'designs, runs, pauses and stops crawls',
  curator: 'views everything and annotates',
  manager: 'exports and deletes',
  admin: 'everything, and manages users',
};

/** Admins create the cockpit's users and give each a role. */
export function UsersView() {
  const mayManage = useCan('manage-users');
  const client = useQueryClient();
  const users = useQuery({ queryKey: ['users'], queryFn: () => api<UserRow[]>('GET', '/api/users'), enabled: mayManage });
  const [form, setForm] = useState({ username: '', password: '', role: 'archivist' });
  const create = useMutation({
    mutationFn: () => api<UserRow>('POST', '/api/users', form),
    onSuccess: () => {
      setForm({ username: '', password: '', role: form.role });
      void client.invalidateQueries({ queryKey: ['users'] });
    },
  });
  if (!mayManage) {
    return <p role="alert" data-testid="forbidden" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">Not allowed: only admins manage users.</p>;
  }
  const issues = create.error instanceof ApiError ? create.error.issues : [];
  const errorsFor = (field: string) => issues.filter((i) => i.path[0] === field).map((i) => i.message);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Users</h1>
      <form onSubmit={submit} className="card grid gap-4 md:grid-cols-4" aria-label="Add a user">
        <Field id="username" label="User name" errors={errorsFor('username')}>
          <input className="input" autoComplete="off" {...controlProps('username', errorsFor('username'))} value={form.username} onChange={(e) => setForm({ ...form, username: e.target.value })} required />
        </Field>
        <Field id="password" label="Password" hint="At least 8 characters." errors={errorsFor('password')}>
          <input className="input" type="password" autoComplete="new-password" {...controlProps('password', errorsFor('password'), true)} value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} required />
        </Field>
        <Field id="role" label="Role" hint={ROLE_HELP[form.role]} errors={errorsFor('role')}>
          <select className="input" {...controlProps('role', errorsFor('role'), true)} value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value })}>
            {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
          </select>
        </Field>
        <div className="flex items-end">
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>Add user</button>
        </div>
        {!issues.length && <ErrorMessage error={create.error} className="md:col-span-4" />}
      </form>
      <ErrorMessage error={users.error} />
      {users.data && (
        <div className="card overflow-x-auto p-0">
          <table className="table-base">
            <caption className="sr-only">Users</caption>
            <thead><tr><th scope="col">User</th><th scope="col">Role</th><th scope="col">Since</th><th scope="col">Change</th></tr></thead>
            <tbody>
              {users.data.map((u) => (
                <tr key={u.id} data-testid="user-row" data-username={u.username}>
                  <td>{u.username}</td>
                  <td>{u.role} <span className="text-xs text-slate-600">({ROLE_HELP[u.role] ?? ''})</span></td>
                  <td>{formatDate(u.createdAt)}</td>
                  <td><UserChange user={u} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** An admin's change to one user: another role, or a new password (which ends the user's sessions). */
function UserChange({ user }: { user: UserRow }) {
  const client = useQueryClient();
  const [role, setRole] = useState(user.role);
  const [password, setPassword] = useState('');
  const save = useMutation({
    mutationFn: () => api<UserRow>('PATCH', `/api/users/${user.id}`, { ...(role !== user.role ? { role } : {}), ...(password ? { password } : {}) }),
    onSuccess: () => {
      setPassword('');
      void client.invalidateQueries({ queryKey: ['users'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const issue = save.error instanceof ApiError ? save.error.issues.map((i) => i.message).join('; ') || save.error.message : save.error?.message;
  const id = `user-${user.id}`;
  return (
    <form onSubmit={submit} className="flex flex-wrap items-center gap-2" aria-label={`Change ${user.username}`}>
      <label htmlFor={`${id}-role`} className="sr-only">Role of {user.username}</label>
      <select id={`${id}-role`} className="input w-32" value={role} onChange={(e) => setRole(e.target.value)}>
        {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
      </select>
      <label htmlFor={`${id}-password`} className="sr-only">New password for {user.username}</label>
      <input id={`${id}-password`} className="input w-40" type="password" autoComplete="new-password" placeholder="new password" value={password} onChange={(e) => setPassword(e.target.value)} />
      <button type="submit" className="btn" disabled={save.isPending || (role === user.role && !password)}>Save</button>
      {save.isSuccess && <span role="status" className="text-xs text-emerald-800">Saved.</span>}
      {issue && <span role="alert" className="text-xs text-red-700">{issue}</span>}
    </form>
  );
}
