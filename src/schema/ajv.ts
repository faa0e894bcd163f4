import { Ajv2020 } from 'ajv/dist/2020.js';

/**
 * The one ajv instance of the process (JSON Schema 2020-12). Compiled validators are cached
 * by ajv per schema object, so callers keep their schema objects stable.
 */
export const ajv = new Ajv2020({
  allErrors: true,
  strict: false,
  // Our schemas are generated, not user-written JSON Schema: checking each against the
  // 2020-12 meta-schema costs ~250 ms on first use and can find nothing.
  validateSchema: false,
  useDefaults: true,
  coerceTypes: false,
});
