/**
 * `$` (and on its own once a budget warns): the budget at its warning, what it has spent and
 * its limit, and the choices — raise by half, double, type a new limit, or go on without —
 * with the amount being typed (replaces the body while open; the run is held behind it).
 */
import { Box, Text } from 'ink';
import { formatDollarLimit, formatDollars } from '../../present/money.ts';
import { formatCount } from '../../present/numbers.ts';
import { chosenLimit } from '../../runtime/budget-raises.ts';
import type { WarnedBudget } from '../store/index.ts';
import { PromptFrame, titledRows } from './PromptFrame.tsx';

export interface BudgetPromptProps {
  warned: WarnedBudget | undefined;
  typed: string;
  height: number;
  width: number;
}

/** A limit as the prompt shows it. */
function limitText(warned: WarnedBudget, to: number | bigint | string): string {
  return warned.metric === 'tokens'
    ? `${formatCount(Number(to))} tokens`
    : formatDollarLimit(BigInt(to));
}

/** The prompt's lines above the amount line: the budget, its spending, the choices. */
export function budgetPromptLines(warned: WarnedBudget): string[] {
  const spent =
    warned.metric === 'tokens'
      ? `${formatCount(warned.used)} of ${formatCount(warned.limit)} tokens`
      : `${formatDollars(BigInt(warned.used))} of ${formatDollarLimit(BigInt(warned.limit))}`;
  const percent =
    warned.metric === 'tokens'
      ? Math.floor((warned.used * 100) / warned.limit)
      : Number((BigInt(warned.used) * 100n) / BigInt(warned.limit));
  const raised = (how: 'half' | 'double'): string => {
    const chosen = chosenLimit(warned, how);
    return chosen.ok ? limitText(warned, chosen.request.to) : '';
  };
  const unit = warned.metric === 'tokens' ? 'tokens' : 'dollars';
  return [
    `! Budget warning: ${warned.scope} "${warned.subject}" has used ${percent}% of its limit`,
    `  spent ${spent}`,
    '  The run is held: every actor stops at its next step until you choose.',
    '',
    `  +    raise it by half, to ${raised('half')}`,
    `  *    double it, to ${raised('double')}`,
    `  or type a new limit (${unit}) and press enter`,
    `  n    go on without raising (the work fails at ${limitText(warned, warned.limit)})`,
    '  esc  choose later (the run stays held; $ opens this again)',
    '',
  ];
}

/** The warned budget and the amount line. */
export function BudgetPrompt(props: BudgetPromptProps) {
  const { warned, typed, height, width } = props;
  if (warned === undefined) {
    return (
      <Box height={height}>
        <Text dimColor>No budget is at its warning.</Text>
      </Box>
    );
  }
  const rows = titledRows(budgetPromptLines(warned), width, { bold: true, color: 'yellow' });
  return <PromptFrame rows={rows} typed={typed} height={height} width={width} />;
}
