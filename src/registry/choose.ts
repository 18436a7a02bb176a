/**
 * Which candidates a new network keeps: each screened URL asked its chain and head by the prober
 * `validate --probe` uses (src/probe), the ones on the claimed chain and not lagging kept, fastest
 * first, at most `max`; every other URL is listed with why. Without probing, the first `max` that
 * passed the screen are kept in the registry's order, and said to be unprobed.
 */
import type { Claimed } from '../probe/chain-probe.js';
import type { Prober } from '../probe/prober.js';
import type { Screened } from './draft.js';

/** One URL's verdict, as the CLI lists it and the API's dry_run answers it. */
export interface Candidate {
  url: string;
  /** 'refused' (by the screen, never asked), 'not_probed', or the probe's status (ok, wrong_chain, lagging, ...). */
  status: string;
  chain_id: number | null;
  head: number | null;
  latency_ms: number | null;
  /** Why it is not kept; null for a kept URL. */
  reason: string | null;
  chosen: boolean;
}

export interface Choice {
  candidates: Candidate[];
  /** The kept URLs, in the order written. */
  chosen: string[];
  /** The fastest kept URL's head, for measuring the block time. */
  fastest: { url: string; head: number } | null;
}

export async function chooseUrls(
  family: string,
  screened: Screened[],
  claimed: Claimed,
  max: number,
  prober: Prober | null,
): Promise<Choice> {
  const refused = screened.filter((s) => s.refusal !== null).map((s) => blank(s.url, 'refused', s.refusal));
  const asked = screened.filter((s) => s.refusal === null).map((s) => s.url);
  if (prober === null || !prober.probes(family)) {
    const listed = asked.map((url, i) =>
      i < max ? { ...blank(url, 'not_probed', null), chosen: true } : blank(url, 'not_probed', `beyond --max ${max}`),
    );
    return { candidates: [...listed, ...refused], chosen: asked.slice(0, max), fastest: null };
  }
  const health = await prober.probeNetwork(family, asked, claimed);
  const ok = health
    .filter((h) => h.status === 'ok')
    .sort((a, b) => (a.latency_ms ?? Infinity) - (b.latency_ms ?? Infinity));
  const kept = new Set(ok.slice(0, max).map((h) => h.url));
  const probed = health.map((h): Candidate => {
    const chosen = kept.has(h.url);
    const reason = chosen
      ? null
      : h.status === 'ok'
        ? `answered, but ${max} faster ones were kept (--max ${max})`
        : h.error;
    return {
      url: h.url,
      status: h.status,
      chain_id: h.chain_id ?? null,
      head: h.head,
      latency_ms: h.latency_ms,
      reason: chosen ? null : (reason ?? h.status),
      chosen,
    };
  });
  probed.sort((a, b) => Number(b.chosen) - Number(a.chosen) || order(ok, a.url) - order(ok, b.url));
  const first = ok[0];
  return {
    candidates: [...probed, ...refused],
    chosen: ok.slice(0, max).map((h) => h.url),
    fastest: first && first.head !== null ? { url: first.url, head: first.head } : null,
  };
}

function order(ok: Array<{ url: string }>, url: string): number {
  const at = ok.findIndex((h) => h.url === url);
  return at < 0 ? ok.length : at;
}

function blank(url: string, status: string, reason: string | null): Candidate {
  return { url, status, chain_id: null, head: null, latency_ms: null, reason, chosen: false };
}
