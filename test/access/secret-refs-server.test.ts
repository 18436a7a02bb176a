/**
 * SECRET_REFS_ALLOWED on the built server and the built CLI: a table of references a network may
 * not make (another family's variable, a URL-shaped process variable, set and unset names,
 * netcfg's own settings, glob edges), each refused with one sentence whether its variable is set
 * or not, through a file (invalid at its line and column, the last good version served,
 * `netcfg validate`) and through a PATCH (400); no answer, output or log line holds a value.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../src/paths.js';
import { within } from '../helpers/deadline.js';
import { makeConfigDir, removeDir } from '../helpers/fixtures.js';
import {
  BASE,
  SEPOLIA_MASK,
  secretsIn,
  startSecretWorld,
  TOKENS,
  type SecretWorld,
} from '../helpers/secret-refs-world.js';

const CLI = path.join(PROJECT_ROOT, 'dist', 'src', 'cli.js');
const run = promisify(execFile);

/** Names evm:sepolia may not reference, and why each is in the table. */
const ATTEMPTS: Array<[string, string]> = [
  ['SOL_SECRET_URL', "another family's key, set"],
  ['SOL_NOT_SET', "another family's name, unset"],
  ['SENTRY_DSN', 'a URL-shaped process variable'],
  ['NOT_SET_ANYWHERE', 'an unset name no glob takes'],
  ['API_KEY', "netcfg's own setting, though API_* is listed"],
  ['API_TOKENS_FILE', "netcfg's own setting, though API_* is listed"],
  ['GIT_FORGE_TOKEN', 'a GIT_* setting, though GIT_* is listed'],
  ['ETH', 'ETH_* needs the underscore'],
  ['XETH_URL', 'a glob is anchored at its start'],
  ['eth_lower_url', 'variables are case-sensitive'],
];

const HOW =
  "SECRET_REFS_ALLOWED lists the variables each network may name (netcfg's own settings never); add it there, or write the URL";
const sentence = (name: string, id: string): string =>
  `rpc_urls[1] names the environment variable ${name}, which ${id} may not reference: ${HOW}.`;
const fileWith = (name: string): string =>
  `rpc_urls:\n  - https://public.example.com\n  - type: env\n    value: ${name}\nchain_id: 11155111\n`;

describe('SECRET_REFS_ALLOWED: a reference outside what its network may name (built server and CLI)', function () {
  this.timeout(60_000);
  let world: SecretWorld;
  beforeEach(async () => (world = await startSecretWorld()));
  afterEach(async () => world.stop());

  it('a file: invalid at the line and column with the one sentence, the last good version served', async () => {
    const answers: string[] = [];
    for (const [name, why] of ATTEMPTS) {
      await world.serve(BASE);
      writeFileSync(path.join(world.root, 'evm/sepolia.yaml'), fileWith(name));
      const invalid = await within(
        (async () => {
          for (;;) {
            const ready = await world.call(TOKENS.admin, '/api/v1/ready');
            answers.push(ready.text);
            const found = (ready.body.components.index.invalid_files as Array<{ error: string }>).find((f) =>
              f.error.includes(` ${name},`),
            );
            if (found) return found;
            await new Promise((r) => setTimeout(r, 20));
          }
        })(),
        10_000,
        `${name} reported`,
      );
      expect(invalid, why).to.deep.include({
        path: 'evm/sepolia.yaml',
        line: 3,
        column: 5,
        error: sentence(name, 'evm:sepolia'),
      });
      expect(invalid, `${why}: not a warning of an unset variable`).not.to.have.property('unset_secret');
      const served = await world.call(TOKENS.reader, '/api/v1/networks/evm:sepolia');
      expect(served.body.data.rpc_urls[0], `${why}: the last good version`).to.deep.equal({
        url: SEPOLIA_MASK,
        weight: 100,
        secret: true,
      });
      answers.push(served.text);
    }
    expect(secretsIn(answers.join('\n')), 'a value in an answer').to.deep.equal([]);
    expect(secretsIn(JSON.stringify(world.server.logs)), 'a value in a log line').to.deep.equal([]);
  });

  it('netcfg validate: each a problem at its line and column with the same sentence, set or not', async () => {
    const files = Object.fromEntries(ATTEMPTS.map(([name], i) => [`evm/n${i}.yaml`, fileWith(name)]));
    const root = makeConfigDir(files);
    try {
      for (const format of ['text', 'json']) {
        const env = { ...world.env, PATH: process.env.PATH ?? '' };
        type Ran = { code?: number; stdout: string; stderr: string };
        const out: Ran = await run(process.execPath, [CLI, 'validate', root, '--format', format], { env }).catch(
          (e: Ran) => e,
        );
        expect(out.code, format).to.equal(1);
        for (const [i, [name, why]] of ATTEMPTS.entries()) {
          const line = `${path.join(root, `evm/n${i}.yaml`)}:3:5: ${sentence(name, `evm:n${i}`)}`;
          if (format === 'text') expect(out.stdout, why).to.include(line);
          const problem = {
            path: path.join(root, `evm/n${i}.yaml`),
            line: 3,
            column: 5,
            error: sentence(name, `evm:n${i}`),
          };
          if (format === 'json') expect(JSON.parse(out.stdout).problems, why).to.deep.include(problem);
        }
        expect(secretsIn(out.stdout + out.stderr), `${format}: a value in the output`).to.deep.equal([]);
      }
    } finally {
      removeDir(root);
    }
  });

  it('a PATCH by a revealing token or an admin: 400 at the entry with the same sentence, nothing written', async () => {
    const answers: string[] = [];
    for (const [name, why] of ATTEMPTS) {
      for (const token of [TOKENS.revealer, TOKENS.admin]) {
        const res = await world.patch(token, ['https://public.example.com', { type: 'env', value: name }]);
        answers.push(res.text);
        expect(res.status, `${why}: ${res.text}`).to.equal(400);
        expect(res.body.code, why).to.equal('VALIDATION_FAILED');
        expect(res.body.details, why).to.deep.equal([
          { pointer: '/rpc_urls/1', message: sentence(name, 'evm:sepolia') },
        ]);
        expect(world.file(), `${why}: nothing written`).to.equal(BASE);
      }
    }
    expect(secretsIn(answers.join('\n')), 'a value in an answer').to.deep.equal([]);
    expect(secretsIn(JSON.stringify(world.server.logs)), 'a value in a log line').to.deep.equal([]);
  });

  it('an allowed name is resolved, and an allowed unset one says so (the operator allowed the name)', async () => {
    const allowed = await world.patch(TOKENS.revealer, [
      'https://public.example.com',
      { type: 'env', value: 'ETH_OTHER_URL' },
    ]);
    expect(allowed.status, allowed.text).to.equal(200);
    const unset = await world.patch(TOKENS.revealer, [
      'https://public.example.com',
      { type: 'env', value: 'ETH_NOT_SET' },
    ]);
    expect(unset.status).to.equal(400);
    const said =
      "rpc_urls[1] names the environment variable ETH_NOT_SET, which is not set (or empty) in netcfg's environment; set it, or write the URL.";
    expect(unset.body.details[0].message).to.equal(said);
  });
});
