/** How reports name an expectation: one line, as it reads in the eval file. */
import type { Comparison, Expectation, ExpectedCall } from './eval-types.ts';

/** `output "greeting" contains "Ada"`, `max cost 0.05`, `tools greeter: lookup → send`. */
export function describeExpectation(expectation: Expectation): string {
  const inTask = (task: string | undefined): string => (task === undefined ? '' : ` ${task}`);
  switch (expectation.kind) {
    case 'status':
      return `${expectation.status}${inTask(expectation.task)}`;
    case 'output_valid':
      return `output_valid ${expectation.task}`;
    case 'output': {
      const field = expectation.field === undefined ? '' : `.${expectation.field}`;
      return `output ${expectation.task}${field} ${describeComparison(expectation.comparison)}`;
    }
    case 'summary':
      return `summary ${expectation.task} ${describeComparison(expectation.comparison)}`;
    case 'route':
      return `route ${expectation.task} = ${expectation.route ?? 'none'}`;
    case 'tools':
      return `tools ${expectation.agent}${inTask(expectation.task)}: ${expectation.calls.map(describeCall).join(' → ')}`;
    case 'max':
      return `max ${expectation.metric} ${expectation.limit}`;
    case 'judge':
      return `judge${inTask(expectation.task)} ≥ ${expectation.threshold} (${expectation.model.config}.${expectation.model.key})`;
  }
}

function describeComparison(comparison: Comparison): string {
  switch (comparison.kind) {
    case 'equals':
      return `equals ${JSON.stringify(comparison.value)}`;
    case 'contains':
      return `contains ${JSON.stringify(comparison.value)}`;
    case 'matches':
      return `matches /${comparison.pattern}/`;
    case 'near':
      return `near ${comparison.value} ± ${comparison.tolerance}`;
  }
}

function describeCall(call: ExpectedCall): string {
  return call.arguments === undefined ? call.tool : `${call.tool}${JSON.stringify(call.arguments)}`;
}
