/** The API key form: the key is kept for this tab only (sessionStorage) and sent as the bearer header. */
import { useState } from 'preact/hooks';

export function SignIn({ error, onSubmit }: { error: string | null; onSubmit: (key: string) => Promise<void> }) {
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    await onSubmit(key.trim());
    setBusy(false);
  };
  return (
    <main class="sign-in">
      <h1>netcfg console</h1>
      <p>This server asks for its API key. It is kept for this browser tab only.</p>
      <form onSubmit={submit}>
        <label for="api-key">API key</label>
        <input id="api-key" type="password" autocomplete="current-password" required value={key} onInput={(e) => setKey(e.currentTarget.value)} aria-describedby={error ? 'api-key-error' : undefined} aria-invalid={error ? true : undefined} />
        {error && (
          <p id="api-key-error" role="alert" class="problem">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy || key.trim() === ''}>
          Sign in
        </button>
      </form>
    </main>
  );
}
