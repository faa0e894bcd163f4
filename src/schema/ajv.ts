import { Ajv2020 } from 'ajv/dist/2020.js';

/**
 * The one ajv instance of the process (JSON Schema 2020-12), used only by `validate.ts`.
 * It never modifies a value: defaults are filled by `defaults.ts` into a copy, and types are
 * not coerced. Compiled validators are cached by `validate.ts` per schema.
 */
export const ajv = new Ajv2020({
  allErrors: true,
  strict: false,
  // Our schemas are generated, not user-written JSON Schema: checking each against the
  // 2020-12 meta-schema costs ~250 ms on first use and can find nothing.
  validateSchema: false,
  useDefaults: false,
  coerceTypes: false,
});
