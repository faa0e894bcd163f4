/**
 * The runs an eval makes: one slot per variant × case × repeat, in an order that fills every
 * cell of the table a little at a time (repeat, then case, then variant).
 */
import { UsageError } from '../base/errors.ts';
import { didYouMean } from '../base/suggest.ts';
import type { EvalCase, EvalDefinition, EvalVariant } from './definition/eval-types.ts';

/** One run of an eval. */
export interface EvalSlot {
  /** `variant/case/repeat`: the run's key in the eval's state file and cassettes. */
  key: string;
  variant: EvalVariant;
  evalCase: EvalCase;
  /** 1-based. */
  repeat: number;
}

/** What narrows or widens an eval (`--variant`, `--case`, `--repeat`). */
export interface PlanChoices {
  variants?: readonly string[];
  cases?: readonly string[];
  repeat?: number;
}

/** The variants, cases and slots an eval runs; a name it does not have is a usage error. */
export function planEval(
  definition: EvalDefinition,
  choices: PlanChoices = {},
): { variants: EvalVariant[]; cases: EvalCase[]; repeat: number; slots: EvalSlot[] } {
  const variants = pick(definition.variants, choices.variants, 'variant', definition.name);
  const cases = pick(definition.cases, choices.cases, 'case', definition.name);
  const repeat = choices.repeat ?? definition.repeat;
  const slots: EvalSlot[] = [];
  for (let index = 1; index <= repeat; index++) {
    for (const evalCase of cases) {
      for (const variant of variants) {
        const key = `${variant.name}/${evalCase.name}/${index}`;
        slots.push({ key, variant, evalCase, repeat: index });
      }
    }
  }
  return { variants, cases, repeat, slots };
}

function pick<T extends { name: string }>(
  all: readonly T[],
  wanted: readonly string[] | undefined,
  kind: string,
  evalName: string,
): T[] {
  if (wanted === undefined || wanted.length === 0) return [...all];
  const names = all.map((item) => item.name);
  for (const name of wanted) {
    if (!names.includes(name)) {
      throw new UsageError(`eval "${evalName}" has no ${kind} "${name}"${didYouMean(name, names)}`);
    }
  }
  return all.filter((item) => wanted.includes(item.name));
}
