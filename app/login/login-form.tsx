'use client';
import { useSearchParams } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { safeNext } from '../lib/client/safe-next';
import { useLogin } from '../lib/client/session';

/**
 * The login form. With `?again=1` (opened in a new tab by "sign in" after a session ended) it
 * stays on this page once signed in and sends the user back to the tab they came from.
 */
export function LoginForm() {
  const params = useSearchParams();
  const login = useLogin();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const again = params.get('again') === '1';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate({ username, password }, {
      onSuccess: () => {
        if (!again) window.location.assign(safeNext(params.get('next'), window.location.origin));
      },
    });
  };
  const failed = login.error && ('status' in login.error && login.error.status === 401 ? 'Wrong user name or password.' : login.error.message);

  if (again && login.isSuccess) {
    return (
      <div className="card w-full max-w-sm space-y-2">
        <h1 className="text-2xl font-bold text-sky-900">Signed in again</h1>
        <p role="status" data-testid="signed-in-again">
          Go back to the tab you were working in and try again there. You may close this tab.
        </p>
      </div>
    );
  }

  return (
    <form onSubmit={submit} className="card w-full max-w-sm space-y-4" aria-labelledby="login-title">
      <h1 id="login-title" className="text-2xl font-bold text-sky-900">Sign in to Tidemark</h1>
      <div>
        <label htmlFor="username" className="mb-1 block text-sm font-medium">User name</label>
        <input id="username" name="username" className="input" autoComplete="username" required autoFocus value={username} onChange={(e) => setUsername(e.target.value)} />
      </div>
      <div>
        <label htmlFor="password" className="mb-1 block text-sm font-medium">Password</label>
        <input id="password" name="password" type="password" className="input" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      </div>
      {failed && <p role="alert" className="text-sm text-red-700">{failed}</p>}
      <button type="submit" className="btn btn-primary w-full justify-center" disabled={login.isPending}>
        {login.isPending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
