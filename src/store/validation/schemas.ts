/**
 * The JSON Schemas in schemas/, compiled once by AJV. They are the one description of a network
 * file and of a PATCH body: the server, `netcfg validate` and the OpenAPI document all use them.
 * AJV's errors become `{pointer, message}` sentences (schema-errors.ts), never passed on raw.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { ErrorDetail } from '../../errors.js';
import { SCHEMAS_DIR } from '../../paths.js';
import { toDetails } from './schema-errors.js';

export type JsonSchema = Record<string, unknown>;

export interface Schemas {
  network: JsonSchema;
  updateNetwork: JsonSchema;
  /** Validates a whole network file (as plain data). */
  validateNetwork(data: unknown): ErrorDetail[];
  /** Validates a PATCH body. */
  validateUpdate(data: unknown): ErrorDetail[];
}

function load(file: string): JsonSchema {
  return JSON.parse(readFileSync(path.join(SCHEMAS_DIR, file), 'utf8')) as JsonSchema;
}

let cached: Schemas | undefined;

/** Compiles the schemas on first use; later calls return the same validators. */
export function loadSchemas(): Schemas {
  if (cached) return cached;
  const network = load('network.schema.json');
  const updateNetwork = load('update-network.schema.json');
  const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true });
  ajv.addSchema(network);
  const validateNetwork = ajv.compile(network);
  const validateUpdate = ajv.compile(updateNetwork);
  cached = {
    network,
    updateNetwork,
    validateNetwork: (data) => run(validateNetwork, data),
    validateUpdate: (data) => run(validateUpdate, data),
  };
  return cached;
}

function run(validate: ValidateFunction, data: unknown): ErrorDetail[] {
  if (validate(data)) return [];
  return toDetails(validate.errors ?? []);
}
