/**
 * The result a run's `done` resolves with. `costPico` is a BigInt (exact money), which
 * `JSON.stringify` refuses; the result therefore also carries the dollars as a number and
 * writes itself to JSON with `costPico` as a decimal string.
 */
import type { RunResult, RunResultJson } from '../actors/contracts.ts';

const PICO_PER_DOLLAR = 1e12;

/** A RunResult from its figures: `costDollars` filled in, `toJSON` attached (not enumerable). */
export function createRunResult(fields: Omit<RunResult, 'costDollars' | 'toJSON'>): RunResult {
  const result = { ...fields, costDollars: Number(fields.costPico) / PICO_PER_DOLLAR };
  // Not enumerable: spreading or comparing a result sees its data only.
  Object.defineProperty(result, 'toJSON', {
    value: (): RunResultJson => ({ ...result, costPico: String(result.costPico) }),
    enumerable: false,
  });
  return result as RunResult;
}
