/**
 * The operator console: sign-in when the server asks for a token (the header then says whose it
 * is), then the overview, a network and its history, kept current by the change stream. Pages are
 * addressed by the URL's hash (`#/networks/evm:sepolia`), so the server serves one page and the
 * browser's back button works.
 */
import { render } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { AddNetworkPage } from './pages/add-network.js';
import { Api, ApiError, type Me } from './state/api.js';
import { HistoryPage } from './pages/history.js';
import { openLive, type LiveEvent, type Subscribe } from './state/live.js';
import { NetworkPage } from './pages/network-page.js';
import { Overview } from './pages/overview.js';
import { useReadiness } from './state/server-state.js';
import './app.css';

const KEY = 'netcfg.apiKey';

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const update = (): void => setHash(location.hash);
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return hash;
}

/** The page a hash names; a malformed one is the overview, not an exception. */
function routeOf(hash: string): { id: string | null; history: boolean; add?: true } {
  if (hash === '#/add-network') return { id: null, history: false, add: true };
  const match = /^#\/networks\/([^/]+)(\/history)?$/.exec(hash);
  try {
    return match
      ? { id: decodeURIComponent(match[1] ?? ''), history: match[2] !== undefined }
      : { id: null, history: false };
  } catch {
    return { id: null, history: false };
  }
}

/** The API key form: the key is kept for this tab only (sessionStorage) and sent as the bearer header. */
function SignIn({ error, onSubmit }: { error: string | null; onSubmit: (key: string) => Promise<void> }) {
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
        <input
          id="api-key"
          type="password"
          autocomplete="current-password"
          required
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
          aria-describedby={error ? 'api-key-error' : undefined}
          aria-invalid={error ? true : undefined}
        />
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

type Access =
  | { state: 'checking' }
  | { state: 'signed-in'; api: Api; me: Me }
  | { state: 'needs-key'; error: string | null }
  | { state: 'unreachable'; error: string };

/** Whether the API answers with this key (or without one), and who it is; a 401 means a key is needed. */
async function tryKey(key: string | null, onUnauthorized: () => void): Promise<Access> {
  const api = new Api(key, onUnauthorized);
  try {
    // Asked without onUnauthorized: a 401 here is the answer, not a key that expired.
    const { data: me } = await new Api(key).get<Me>('/api/v1/access/me');
    return { state: 'signed-in', api, me };
  } catch (err) {
    if (err instanceof ApiError && err.status === 401)
      return { state: 'needs-key', error: key ? 'That API key was refused. Check it and try again.' : null };
    return { state: 'unreachable', error: err instanceof Error ? err.message : String(err) };
  }
}

function App() {
  const [access, setAccess] = useState<Access>({ state: 'checking' });
  const hash = useHash();
  const main = useRef<HTMLElement>(null);
  // A key the server stops accepting (rotated, say) brings the sign-in back.
  const expired = (): void => {
    sessionStorage.removeItem(KEY);
    setAccess({ state: 'needs-key', error: 'The API key is no longer accepted; sign in again.' });
  };
  const check = (key: string | null): void => void tryKey(key, expired).then(setAccess);
  useEffect(() => check(sessionStorage.getItem(KEY)), []);

  const api = access.state === 'signed-in' ? access.api : null;
  const [connected, setConnected] = useState(false);
  const listeners = useMemo(() => new Set<(event: LiveEvent) => void>(), []);
  useEffect(() => {
    if (!api) return;
    const live = openLive(api.headers(), (event) => listeners.forEach((l) => l(event)), setConnected, expired);
    return () => live.close();
  }, [api, listeners]);
  const subscribe: Subscribe = (listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const ready = useReadiness(api, subscribe);
  const route = routeOf(hash);
  // A new page: say so in the title, and start reading (and tabbing) from its top.
  useEffect(() => {
    document.title = route.id
      ? `${route.id}${route.history ? ' history' : ''} - netcfg`
      : route.add
        ? 'Add a network - netcfg'
        : 'Networks - netcfg';
    main.current?.focus();
  }, [hash]);

  if (access.state === 'checking') return <p role="status">Connecting...</p>;
  if (access.state === 'unreachable') {
    return (
      <main class="sign-in">
        <h1>netcfg console</h1>
        <p role="alert" class="problem">
          {access.error}
        </p>
        <button type="button" onClick={() => check(sessionStorage.getItem(KEY))}>
          Retry
        </button>
      </main>
    );
  }
  if (access.state === 'needs-key') {
    const signIn = async (key: string): Promise<void> => {
      const next = await tryKey(key, expired);
      if (next.state === 'signed-in') sessionStorage.setItem(KEY, key);
      setAccess(next);
    };
    return <SignIn error={access.error} onSubmit={signIn} />;
  }
  const signOut = (): void => {
    sessionStorage.removeItem(KEY);
    setAccess({ state: 'needs-key', error: null });
  };
  const { id, history } = route;
  const { me } = access;
  // A propose token's change, and everyone's under GIT_PROPOSE_ONLY, is a pull request: Propose, not Save; no Revert.
  const proposes = me.role === 'propose' || me.proposals?.propose_only === true;
  const proposals = me.proposals?.enabled === true;
  const mayWrite = me.role !== 'read' && (me.role !== 'propose' || proposals);
  // Adding takes the write role (a propose token is refused by the server); under GIT_PROPOSE_ONLY it is proposed.
  const mayAdd = me.role === 'write' || me.role === 'admin';
  return (
    <>
      <header>
        <a href="#/" class="brand">
          netcfg
        </a>
        <span class={connected ? 'live on' : 'live'} role="status">
          {connected ? 'Live' : 'Reconnecting...'}
        </span>
        <span class="who">
          {me.name === null ? 'No token needed (loopback)' : `Signed in as ${me.name} (${me.role})`}
        </span>
        {sessionStorage.getItem(KEY) !== null && (
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        )}
      </header>
      <main ref={main} tabIndex={-1}>
        {id === null && !route.add && <Overview api={access.api} subscribe={subscribe} ready={ready} mayAdd={mayAdd} />}
        {route.add && (
          <AddNetworkPage api={access.api} mayAdd={mayAdd} proposes={me.proposals?.propose_only === true} />
        )}
        {id !== null && !history && (
          <NetworkPage
            key={id}
            id={id}
            api={access.api}
            subscribe={subscribe}
            probing={ready?.components.rpc !== undefined}
            mayWrite={mayWrite}
            relayers={ready?.components.relayers !== undefined}
            proposes={proposes}
            proposals={proposals}
          />
        )}
        {id !== null && history && (
          <HistoryPage key={id} id={id} api={access.api} subscribe={subscribe} mayWrite={mayWrite && !proposes} />
        )}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app') as HTMLElement);
