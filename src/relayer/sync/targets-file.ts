/**
 * RELAYER_SYNC_FILE: the relayers netcfg keeps in sync, as YAML.
 *
 *   relayers:
 *     - name: relayer-eu                  # shown in status and logs
 *       url: http://relayer-eu:8080       # its API root
 *       api_key_env: RELAYER_EU_API_KEY   # the key's environment variable; the key is never in the file
 *       networks: ["evm:*", "solana:mainnet-beta"]   # optional; every network when absent
 *       self_heal: false                  # optional (default true): drift found is reported, not set back
 *
 * Every problem is data with line and column; the caller refuses the start with them.
 */
import { ID_GLOB, matchesAny } from '../../id-glob.js';
import { readSettingsList, type Located } from '../../settings-list.js';
import { isRelayerType } from '../format/relayer-types.js';

export interface TargetSpec {
  name: string;
  url: string;
  apiKeyEnv: string;
  /** Globs over network ids (`*` matches any run of characters); null: every network. */
  networks: string[] | null;
  /** false: drift a pass finds is reported and left in place, like Argo CD's selfHeal; changes made through netcfg are still sent. */
  selfHeal: boolean;
}

export type TargetsProblem = Located;

const NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;
const KEYS = ['name', 'url', 'api_key_env', 'networks', 'self_heal'];

export function parseTargetsFile(text: string): { targets: TargetSpec[]; problems: TargetsProblem[] } {
  const { entries, problems, at } = readSettingsList(text, {
    list: 'relayers',
    known: KEYS,
    nonEmpty: true,
    noList: 'the file needs a non-empty list `relayers:` of {name, url, api_key_env, networks, self_heal}',
    notAnEntry: 'a relayer is a mapping of name, url, api_key_env and (optionally) networks and self_heal',
    unknown: (key) => `${key} is not a setting of a relayer (${KEYS.join(', ')})`,
  });
  const targets: TargetSpec[] = [];
  const names = new Set<string>();
  for (const { node: item, get: field, hasUnknown } of entries) {
    const before = problems.length;
    const name = field('name');
    if (typeof name.value !== 'string' || !NAME.test(name.value))
      problems.push(
        at(name.node ?? item, 'name must be lower-case letters, digits, "-" or "_" (it is shown in status and logs)'),
      );
    else if (names.has(name.value)) problems.push(at(name.node, `the name ${name.value} is used twice`));
    const url = field('url');
    if (typeof url.value !== 'string' || !isApiRoot(url.value))
      problems.push(
        at(
          url.node ?? item,
          'url must be the relayer API root, http:// or https:// with no user, password, query or fragment',
        ),
      );
    const key = field('api_key_env');
    if (typeof key.value !== 'string' || !ENV_NAME.test(key.value))
      problems.push(
        at(
          key.node ?? item,
          'api_key_env must name the environment variable holding the key (A-Z, 0-9, _); the key itself never goes in this file',
        ),
      );
    const networks = field('networks');
    const globs = networks.value === undefined ? null : networks.value;
    if (
      globs !== null &&
      (!Array.isArray(globs) || globs.length === 0 || globs.some((g) => typeof g !== 'string' || !ID_GLOB.test(g)))
    ) {
      problems.push(
        at(networks.node, 'networks must be a non-empty list of ids or globs such as "evm:*" or "solana:mainnet-beta"'),
      );
    }
    const selfHeal = field('self_heal');
    if (selfHeal.value !== undefined && typeof selfHeal.value !== 'boolean')
      problems.push(
        at(selfHeal.node ?? item, 'self_heal must be true or false (false: drift is reported and left in place)'),
      );
    if (problems.length > before || hasUnknown) continue;
    names.add(name.value as string);
    targets.push({
      name: name.value as string,
      url: (url.value as string).replace(/\/+$/, ''),
      apiKeyEnv: key.value as string,
      networks: globs as string[] | null,
      selfHeal: selfHeal.value !== false,
    });
  }
  return { targets: problems.length > 0 ? [] : targets, problems };
}

/** The file's targets as the follower's worker thread takes a parser (follow/parse-thread.ts). */
export function targetsOfText(text: string): { value: TargetSpec[]; problems: TargetsProblem[] } {
  const { targets, problems } = parseTargetsFile(text);
  return { value: targets, problems };
}

/** Whether a target takes the network `id`: a family the relayer has (evm, solana, stellar), matched by its globs when it has them. */
export function inScope(target: Pick<TargetSpec, 'networks'>, id: string): boolean {
  if (!isRelayerType(id.slice(0, id.indexOf(':')))) return false;
  return target.networks === null || matchesAny(target.networks, id);
}

function isApiRoot(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.username === '' &&
    url.password === '' &&
    url.search === '' &&
    url.hash === ''
  );
}
