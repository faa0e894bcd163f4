import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type * as AjvModule from 'ajv/dist/2020.js';

/**
 * The one ajv instance of the process (JSON Schema 2020-12), used only by `validate.ts` and
 * created on its first use: loading ajv is a noticeable part of a cold start (bench/README.md),
 * and most validations end in `quick-check.ts` without it (`sortie verify` of a valid project never
 * needs it). ajv is CommonJS, so `require` loads it synchronously where `validate` is called.
 * It never modifies a value: defaults are filled by `defaults.ts` into a copy, and types are
 * not coerced. Compiled validators are cached by `validate.ts` per schema.
 */
let instance: Ajv2020 | undefined;

/** The process's ajv, loaded and created on the first call. */
export function ajv(): Ajv2020 {
  if (instance !== undefined) return instance;
  const require = createRequire(import.meta.url);
  const { Ajv2020: AjvClass } = require('ajv/dist/2020.js') as typeof AjvModule;
  instance = new AjvClass({
    allErrors: true,
    strict: false,
    // Our schemas are generated, not user-written JSON Schema: checking each against the
    // 2020-12 meta-schema costs a slow first use and can find nothing.
    validateSchema: false,
    useDefaults: false,
    coerceTypes: false,
  });
  return instance;
}
