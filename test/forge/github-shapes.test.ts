/**
 * The GitHub stand-in answers as GitHub documents: its bodies for pulls/create, pulls/list and
 * pulls/update are checked against the response schemas of GitHub's published OpenAPI description
 * (@octokit/openapi), with only the component schemas they reach loaded into ajv.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import { Ajv, type ValidateFunction } from 'ajv';
import { createOrUpdate } from '../../src/forge/forge.js';
import { forgeFromConfig } from '../../src/forge/forge-from-config.js';
import { STAND_IN_REPO, STAND_IN_TOKEN, startStandInForge, type StandInForge } from '../helpers/stand-in-forge.js';

type Schema = Record<string, unknown>;
interface Description {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>
  >;
  components: { schemas: Record<string, Schema> };
}

/** The response schema of an operation, and every component schema it reaches through $ref, by name. */
function responseSchema(
  doc: Description,
  path: string,
  method: string,
  status: string,
): { schema: Schema; components: Record<string, Schema> } {
  const schema = doc.paths[path]?.[method]?.responses[status]?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`no ${method} ${path} ${status} in GitHub's description`);
  const components: Record<string, Schema> = {};
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string') {
      const name = ref.replace('#/components/schemas/', '');
      if (!(name in components)) {
        components[name] = doc.components.schemas[name] as Schema;
        walk(components[name]);
      }
    }
    for (const child of Object.values(node)) walk(child);
  };
  walk(schema);
  return { schema, components };
}

describe("forge: the GitHub stand-in against GitHub's OpenAPI description", () => {
  let createdSchema: ValidateFunction;
  let listedSchema: ValidateFunction;
  let updatedSchema: ValidateFunction;
  let standIn: StandInForge;

  before(() => {
    const file = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
    const doc = JSON.parse(readFileSync(file, 'utf8')) as Description; // 13 MB: parsed once, for the three schemas
    // OpenAPI 3.0 schemas: `nullable` is ajv's own keyword; the formats they use, checked here.
    const ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addFormat('uri', (value: string) => URL.canParse(value));
    ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
    ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
    const compile = (path: string, method: string, status: string): ValidateFunction => {
      const { schema, components } = responseSchema(doc, path, method, status);
      return ajv.compile({ ...schema, components: { schemas: components } });
    };
    createdSchema = compile('/repos/{owner}/{repo}/pulls', 'post', '201');
    listedSchema = compile('/repos/{owner}/{repo}/pulls', 'get', '200');
    updatedSchema = compile('/repos/{owner}/{repo}/pulls/{pull_number}', 'patch', '200');
  });
  beforeEach(async () => {
    standIn = await startStandInForge('github', { token: STAND_IN_TOKEN, repo: STAND_IN_REPO.github });
  });
  afterEach(() => standIn.close());

  const valid = (validate: ValidateFunction, body: unknown): void => {
    expect(validate(body), JSON.stringify(validate.errors?.slice(0, 3))).to.equal(true);
  };

  it('answers pulls.create, pulls.list and pulls.update as GitHub documents them (201, 200, 200)', async () => {
    const forge = forgeFromConfig(
      { kind: 'github', url: standIn.url, repo: STAND_IN_REPO.github, token: STAND_IN_TOKEN },
      { timeoutMs: 5000 },
    );
    standIn.seed({ head: 'netcfg/eve/evm-sepolia', fork: true });
    standIn.seed({ head: 'netcfg/bob/merged', state: 'merged' });
    await createOrUpdate(forge, { branch: 'netcfg/alice/evm-sepolia', base: 'main', title: 't', body: 'b' });
    await createOrUpdate(forge, { branch: 'netcfg/alice/evm-sepolia', base: 'main', title: 't2', body: 'b2' });
    await forge.listOpen('netcfg/');
    const byCall = (call: string): Array<{ status: number; body: unknown }> =>
      standIn.answers.filter((a) => a.call === call && a.status < 300);
    expect(byCall('create').map((a) => a.status)).to.deep.equal([201]);
    expect(byCall('update').map((a) => a.status)).to.deep.equal([200]);
    expect(byCall('list').map((a) => (a.body as unknown[]).length)).to.deep.equal([1, 2]);
    for (const { body } of byCall('create')) valid(createdSchema, body);
    for (const { body } of byCall('update')) valid(updatedSchema, body);
    for (const { body } of byCall('list')) valid(listedSchema, body);
  });

  it('the check is a check: a body missing what GitHub always sends is refused', async () => {
    const forge = forgeFromConfig(
      { kind: 'github', url: standIn.url, repo: STAND_IN_REPO.github, token: STAND_IN_TOKEN },
      { timeoutMs: 5000 },
    );
    await forge.create({ branch: 'netcfg/alice/evm-sepolia', base: 'main', title: 't', body: 'b' });
    await forge.listOpen('netcfg/');
    const created = standIn.answers.find((a) => a.call === 'create')?.body as Record<string, Record<string, unknown>>;
    const listed = standIn.answers.find((a) => a.call === 'list')?.body as unknown[];
    expect(createdSchema({ ...created, head: { ...created.head, repo: { full_name: 'octo/networks' } } })).to.equal(
      false,
    );
    expect(createdSchema(listed[0])).to.equal(false); // a list's pull-request-simple lacks `merged` and the counts
    expect(listedSchema([{ ...(listed[0] as object), number: '1' }])).to.equal(false);
  });
});
