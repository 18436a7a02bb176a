/**
 * The RPC URL list as form fields: `RPC URL n`, `Weight n`, `Remove URL n`, `Add URL`. Each
 * field's problems are shown beside it as an alert a screen reader announces, and the field is
 * marked invalid and described by them.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { Problems, Row } from './field-problems.js';

export interface UrlFieldsProps {
  rows: Row[];
  problems: Problems;
  /** Per row index: what the live prober last found, when it runs. */
  health: Map<number, string>;
  /** While a Save is in flight (what is typed then would be lost to its answer), and for a token that may only read. */
  disabled: boolean;
  onChange(rows: Row[]): void;
}

function Messages({ id, messages }: { id: string; messages: string[] | undefined }) {
  if (!messages || messages.length === 0) return null;
  return (
    <p id={id} role="alert" class="problem">
      {messages.join(' ')}
    </p>
  );
}

export function UrlFields({ rows, problems, health, disabled, onChange }: UrlFieldsProps) {
  const set = (i: number, change: Partial<Row>): void =>
    onChange(rows.map((r, k) => (k === i ? { ...r, ...change } : r)));
  // Adding or removing a row moves focus to where the keyboard user continues, not to the page's top.
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (focusNext.current) document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });
  const add = (): void => {
    focusNext.current = `url-${rows.length}`;
    onChange([...rows, { url: '', weight: '100' }]);
  };
  const remove = (i: number): void => {
    focusNext.current = rows.length > 1 ? `url-${Math.min(i, rows.length - 2)}` : 'add-url';
    onChange(rows.filter((_, k) => k !== i));
  };
  return (
    <fieldset disabled={disabled}>
      <legend>RPC URLs</legend>
      <Messages id="list-problem" messages={problems.list} />
      {rows.map((row, i) => {
        const n = i + 1;
        const urlProblems = problems[`url-${i}`];
        const weightProblems = problems[`weight-${i}`];
        const probe = health.get(i);
        return (
          <div class="url-row" key={i}>
            <div class="url-field">
              <label for={`url-${i}`}>RPC URL {n}</label>
              <input
                id={`url-${i}`}
                type="text"
                inputMode="url"
                spellcheck={false}
                autocomplete="off"
                value={row.url}
                readOnly={row.secret}
                aria-invalid={urlProblems ? true : undefined}
                aria-describedby={urlProblems ? `url-${i}-problem` : undefined}
                onInput={(e) => set(i, { url: e.currentTarget.value })}
              />
              <Messages id={`url-${i}-problem`} messages={urlProblems} />
              {row.secret && (
                <p class="secret">Secret: its value stays in netcfg's environment and the file keeps its reference.</p>
              )}
              {probe && <p class="probe">Probe: {probe}</p>}
            </div>
            <div class="weight-field">
              <label for={`weight-${i}`}>Weight {n}</label>
              <input
                id={`weight-${i}`}
                type="number"
                min={0}
                max={100}
                step={1}
                value={row.weight}
                aria-invalid={weightProblems ? true : undefined}
                aria-describedby={weightProblems ? `weight-${i}-problem` : undefined}
                onInput={(e) => set(i, { weight: e.currentTarget.value })}
              />
              <Messages id={`weight-${i}-problem`} messages={weightProblems} />
            </div>
            <button type="button" class="remove" onClick={() => remove(i)}>
              Remove URL {n}
            </button>
          </div>
        );
      })}
      <button type="button" id="add-url" onClick={add}>
        Add URL
      </button>
    </fieldset>
  );
}
