import type { Span } from './ast.ts';
import type { DiagnosticSink } from './diagnostics.ts';
import { didYouMean } from '../base/suggest.ts';
import type { VariableConfig } from './config-types.ts';
import {
  findVariableValue,
  plainEnvName,
  prefixedEnvName,
  type VariableSources,
} from './variable-values.ts';

/** Uses of undeclared variables, warned about once each when decoding is done. */
export interface UndeclaredVariables {
  /** The variable `vars.NAME` reads: the declared one, or an undeclared one (recorded). */
  use: (name: string, span: Span, path: readonly string[]) => VariableConfig;
  /** Warns once per undeclared variable, at its first use in file order. */
  report: () => void;
}

/**
 * Variables used as `vars.NAME` without a `variable` block. The reference runtime reads such
 * names from its vault; sortie reads them like a secret variable (`--var`, `SORTIE_VAR_NAME`,
 * `NAME`), adds them to `variables` (`declared: false`, `secret: true`) and warns once, naming
 * the block to add.
 */
export function undeclaredVariables(
  variables: Map<string, VariableConfig>,
  sources: VariableSources,
  sink: DiagnosticSink,
): UndeclaredVariables {
  const firstUse = new Map<string, { span: Span; path: readonly string[] }>();
  const use = (name: string, span: Span, path: readonly string[]): VariableConfig => {
    const known = variables.get(name);
    if (known?.declared === true) return known;
    const earlier = firstUse.get(name);
    if (earlier === undefined || comesBefore(span, earlier.span))
      firstUse.set(name, { span, path });
    if (known !== undefined) {
      known.span = firstUse.get(name)?.span ?? span;
      return known;
    }
    const found = findVariableValue(name, undefined, sources);
    const variable: VariableConfig = {
      name,
      secret: true,
      declared: false,
      source: found.source,
      span,
    };
    if (found.value !== undefined) variable.value = found.value;
    variables.set(name, variable);
    return variable;
  };
  const report = (): void => {
    const declared = [...variables.values()]
      .filter((variable) => variable.declared)
      .map((variable) => variable.name);
    for (const [name, { span, path }] of firstUse) {
      const suggestion = didYouMean(name, declared);
      sink.warning(
        span,
        `vars.${name} has no variable "${name}" block: it is read like a secret variable${suggestion}`,
        path,
        `its value comes from --var ${name}=VALUE, ${prefixedEnvName(name)} or ${plainEnvName(name)}; declare it with variable "${name}" { secret = true } to silence this warning`,
      );
    }
  };
  return { use, report };
}

function comesBefore(left: Span, right: Span): boolean {
  if (left.file !== right.file) return left.file < right.file;
  return left.start.offset < right.start.offset;
}
