/**
 * The operator console: sign-in when the server has an API key, then the overview, a network and
 * its history, kept current by the change stream. Pages are addressed by the URL's hash
 * (`#/networks/evm:sepolia`), so the server serves one page and the browser's back button works.
 */
import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { Api, ApiError } from './api.js';
import { HistoryPage } from './history.js';
import { openLive, type LiveEvent } from './live.js';
import { NetworkPage } from './network-page.js';
import { Overview } from './overview.js';
import { useReadiness } from './readiness.js';
import { SignIn } from './sign-in.js';
import './app.css';

const KEY = 'netcfg.apiKey';

export type Subscribe = (listener: (event: LiveEvent) => void) => () => void;

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const update = (): void => setHash(location.hash);
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return hash;
}

type Access = { state: 'checking' } | { state: 'signed-in'; api: Api } | { state: 'needs-key'; error: string | null };

/** Whether the API answers with this key (or without one); a 401 means a key is needed. */
async function tryKey(key: string | null): Promise<Access> {
  const api = new Api(key);
  try {
    await api.get('/api/v1/networks?per_page=1');
    return { state: 'signed-in', api };
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return { state: 'needs-key', error: key ? 'That API key was refused. Check it and try again.' : null };
    return { state: 'signed-in', api }; // the pages show other errors where they happen
  }
}

function App() {
  const [access, setAccess] = useState<Access>({ state: 'checking' });
  const hash = useHash();
  useEffect(() => {
    void tryKey(sessionStorage.getItem(KEY)).then(setAccess);
  }, []);

  const api = access.state === 'signed-in' ? access.api : null;
  const [connected, setConnected] = useState(false);
  const listeners = useMemo(() => new Set<(event: LiveEvent) => void>(), []);
  useEffect(() => {
    if (!api) return;
    const live = openLive(api.headers(), (event) => listeners.forEach((l) => l(event)), setConnected);
    return () => live.close();
  }, [api, listeners]);
  const subscribe: Subscribe = (listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const ready = useReadiness(api, subscribe);

  if (access.state === 'checking') return <p>Connecting...</p>;
  if (access.state === 'needs-key') {
    const signIn = async (key: string): Promise<void> => {
      const next = await tryKey(key);
      if (next.state === 'signed-in') sessionStorage.setItem(KEY, key);
      setAccess(next);
    };
    return <SignIn error={access.error} onSubmit={signIn} />;
  }
  const signOut = (): void => {
    sessionStorage.removeItem(KEY);
    setAccess({ state: 'needs-key', error: null });
  };
  const route = /^#\/networks\/([^/]+)(\/history)?$/.exec(hash);
  const id = route ? decodeURIComponent(route[1] ?? '') : null;
  return (
    <>
      <header>
        <a href="#/" class="brand">
          netcfg
        </a>
        <span class={connected ? 'live on' : 'live'} role="status">
          {connected ? 'Live' : 'Reconnecting...'}
        </span>
        {sessionStorage.getItem(KEY) !== null && (
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        )}
      </header>
      <main>
        {id === null && <Overview api={access.api} subscribe={subscribe} ready={ready} />}
        {id !== null && !route?.[2] && <NetworkPage key={id} id={id} api={access.api} subscribe={subscribe} probing={ready?.components.rpc !== undefined} />}
        {id !== null && route?.[2] && <HistoryPage key={id} id={id} api={access.api} subscribe={subscribe} />}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app') as HTMLElement);
