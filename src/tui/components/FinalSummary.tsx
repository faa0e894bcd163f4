/**
 * The finished run's summary, written once through `<Static>`: it is printed above the live
 * view and stays in the terminal's scrollback after the TUI exits.
 */
import { Static, Text } from 'ink';
import { totalsText } from '../../present/money.ts';
import type { RunHeader } from '../store/index.ts';

/** `mission:research succeeded · 12 tasks · 48,210 tokens · $0.4121`. */
export function summaryLine(header: RunHeader): string {
  const totals = totalsText(header.taskCount, header.tokens, header.costPico, header.unpriced);
  return `mission:${header.mission ?? '?'} ${header.status} · ${totals}`;
}

/** Writes the summary once the run has finished; nothing before. */
export function FinalSummary({ header, finished }: { header: RunHeader; finished: boolean }) {
  const items = finished ? [summaryLine(header)] : [];
  return (
    <Static items={items}>
      {(line) => (
        <Text key="summary" bold color={header.status === 'succeeded' ? 'green' : 'red'}>
          {line}
        </Text>
      )}
    </Static>
  );
}
