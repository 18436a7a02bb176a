/**
 * Builds the operator console into dist/console: one bundle of src/console (Preact, TSX) by
 * esbuild, its stylesheet and index.html. The PATCH body's JSON Schema is compiled here, by AJV's
 * standalone code generation, into the bundle: the page checks fields with the server's own schema
 * and needs no `eval` (the console's Content-Security-Policy forbids it).
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standalone from 'ajv/dist/standalone/index.js';
import { build, type Plugin } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(root, 'src', 'console');
const out = path.join(root, 'dist', 'console');

function validatorCode(): string {
  const schema = (file: string): Record<string, unknown> =>
    JSON.parse(readFileSync(path.join(root, 'schemas', file), 'utf8')) as Record<string, unknown>;
  const network = schema('network.schema.json');
  const update = schema('update-network.schema.json');
  // The options of src/store/validation/schemas.ts, so that errors carry what its sentences read.
  const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true, code: { source: true, esm: true } });
  ajv.addSchema(network);
  ajv.addSchema(update);
  return standalone.default(ajv, { validateUpdate: String(update.$id) });
}

/** `import { validateUpdate } from 'virtual:update-validator'` resolves to the generated code. */
const validator: Plugin = {
  name: 'update-validator',
  setup(b) {
    b.onResolve({ filter: /^virtual:update-validator$/ }, () => ({ path: 'update-validator', namespace: 'netcfg' }));
    b.onLoad({ filter: /.*/, namespace: 'netcfg' }, () => ({
      contents: validatorCode(),
      loader: 'js',
      resolveDir: root,
    }));
  },
};

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: { app: path.join(source, 'main.tsx') },
  outdir: out,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome109', 'firefox115', 'safari16'],
  minify: true,
  sourcemap: true,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  plugins: [validator],
  logLevel: 'warning',
});
copyFileSync(path.join(source, 'index.html'), path.join(out, 'index.html'));
