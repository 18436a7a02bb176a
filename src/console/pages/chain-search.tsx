/**
 * The chain registry's search box of "Add a network": a chain's name or id typed, the registry asked
 * once typing pauses (only the latest answer is shown), and each match a button that picks it.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type Api } from '../state/api.js';
import { searchChains, type ChainMatch } from '../state/adding.js';

const PAUSE_MS = 250;

type Results =
  | { state: 'idle' }
  | { state: 'searching' }
  | { state: 'found'; chains: ChainMatch[] }
  | { state: 'error'; text: string };

export function ChainSearch({ api, onPick }: { api: Api; onPick(chain: ChainMatch): void }) {
  const [q, setQ] = useState('');
  const [results, setResults] = useState<Results>({ state: 'idle' });
  const asked = useRef(0);

  useEffect(() => {
    const text = q.trim();
    const mine = ++asked.current;
    if (text === '') return setResults({ state: 'idle' });
    setResults({ state: 'searching' });
    // Asked once typing pauses, not at every key; an answer to an older text is dropped.
    const timer = setTimeout(() => {
      searchChains(api, text).then(
        (chains) => mine === asked.current && setResults({ state: 'found', chains }),
        (err: unknown) =>
          mine === asked.current &&
          setResults({ state: 'error', text: err instanceof ApiError ? err.message : String(err) }),
      );
    }, PAUSE_MS);
    return () => clearTimeout(timer);
  }, [q, api]);

  return (
    <section aria-labelledby="chain-title">
      <h2 id="chain-title">Chain</h2>
      <div class="toolbar">
        <label for="chain-q">Chain name or id</label>
        <input
          id="chain-q"
          type="search"
          autocomplete="off"
          spellcheck={false}
          placeholder="e.g. optimism or 10"
          value={q}
          onInput={(e) => setQ(e.currentTarget.value)}
        />
        <span role="status">
          {results.state === 'searching'
            ? 'Searching the registry...'
            : results.state === 'found'
              ? `${results.chains.length} ${results.chains.length === 1 ? 'match' : 'matches'} in the registry`
              : ''}
        </span>
      </div>
      {results.state === 'error' && (
        <p role="alert" class="problem">
          {results.text}
        </p>
      )}
      {results.state === 'found' && results.chains.length > 0 && (
        <ul class="chain-matches" aria-label="Registry matches">
          {results.chains.map((chain) => (
            <li key={chain.chain_id}>
              <button type="button" onClick={() => onPick(chain)}>
                {chain.name} (chain {chain.chain_id}
                {chain.short_name ? `, ${chain.short_name}` : ''}
                {chain.is_testnet ? ', testnet' : ''})
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
