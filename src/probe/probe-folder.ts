/**
 * `netcfg validate --probe`: every enabled URL of every valid network asked which chain it serves.
 * A URL on the wrong chain, unreachable or answering nonsense is a problem at that URL's entry in
 * its file (line and column); one far behind the network's head is a warning, which does not
 * fail the check. A URL with weight 0 is disabled and not probed: disabling a dead URL must pass.
 */
import { claimedOf, enabledUrls, type UrlHealth } from './chain-probe.js';
import type { Prober } from './prober.js';
import { redactUrl, showAs } from '../redact.js';
import { fingerprint, disabledNote } from './auto-heal.js';
import type { HealNote } from './heal-notes.js';

/** A network as the folder check found it (the view of its record with secrets revealed, and its file). */
export interface ProbedNetwork {
  path: string;
  family: string;
  fields: Record<string, unknown>;
  /** rpc_urls as the file writes them, and the self-healing notes of its history (newest first). */
  written?: unknown[];
  notes?: HealNote[];
}

export interface ProbeFinding {
  path: string;
  line: number;
  column: number;
  error: string;
  severity: 'problem' | 'warning';
}

export async function probeNetworks(
  networks: ProbedNetwork[],
  prober: Prober,
  positionOf: (rel: string, pointer: string) => { line: number; column: number },
): Promise<{ findings: ProbeFinding[]; urls: number }> {
  let urls = 0;
  const perNetwork = await Promise.all(
    networks
      .filter((n) => prober.probes(n.family))
      .map(async (network) => {
        const entries = enabledUrls(network.fields);
        urls += entries.length;
        const reEnabled = entries.flatMap(({ index, shown }): ProbeFinding[] => {
          const disabled = disabledNote(network.notes ?? [], index, fingerprint(network.written?.[index]));
          if (!disabled) return [];
          return [
            {
              path: network.path,
              ...positionOf(network.path, `/rpc_urls/${index}/url`),
              error:
                `rpc_urls[${index}] (${redactUrl(shown)}) was disabled by netcfg's prober at ${disabled.at} ` +
                `(${disabled.status}) and is enabled here by hand; its probe below says whether it answers now`,
              severity: 'warning',
            },
          ];
        });
        const health = (
          await prober.probeNetwork(
            network.family,
            entries.map((e) => e.url),
            claimedOf(network.fields),
          )
        ).map((h, i) => showAs(h, entries[i]?.shown ?? h.url));
        return [
          ...reEnabled,
          ...health.flatMap((h, i): ProbeFinding[] => {
            if (h.status === 'ok') return [];
            const index = entries[i]?.index ?? 0;
            return [
              {
                path: network.path,
                ...positionOf(network.path, `/rpc_urls/${index}/url`),
                error: sentence(index, h),
                severity: h.status === 'lagging' ? 'warning' : 'problem',
              },
            ];
          }),
        ];
      }),
  );
  const findings = perNetwork.flat().sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
  return { findings, urls };
}

function sentence(index: number, h: UrlHealth): string {
  const what = {
    wrong_chain: 'serves another chain',
    unreachable: 'is unreachable',
    bad_response: 'does not answer as an RPC endpoint',
    lagging: 'is behind',
    ok: 'is fine',
  }[h.status];
  return `rpc_urls[${index}] (${redactUrl(h.url)}) ${what}: ${h.error ?? ''}`.trim();
}
