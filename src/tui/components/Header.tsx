/** The header line: mission, run, status, elapsed, tokens and cost, paused flag, replay state. */
import { Box, Text } from 'ink';
import type { ReplayStatus } from '../replay-player.ts';
import type { RunHeader } from '../store/index.ts';
import { statusIcon, tokensText } from '../view/status.ts';
import { textWidth, truncate } from '../../present/columns.ts';
import { formatCost } from '../../present/money.ts';
import { formatElapsed } from '../../present/numbers.ts';

export interface HeaderProps {
  header: RunHeader;
  title: string;
  now: number;
  paused: boolean;
  heldCount: number;
  replay: ReplayStatus | null;
  width: number;
}

function elapsedMs(header: RunHeader, now: number, replaying: boolean): number {
  if (header.durationMs !== null) return header.durationMs;
  const start = header.sessionStartedAt ?? header.startedAt;
  if (start === null) return 0;
  // A replay runs on the journal's clock, not on today's.
  const until = replaying && header.lastEventAt !== null ? Date.parse(header.lastEventAt) : now;
  // A resumed run: its earlier sessions, then this one (not the pause between them).
  return header.earlierMs + Math.max(0, until - Date.parse(start));
}

function replayText(replay: ReplayStatus): string {
  const state = replay.finished ? 'end' : replay.paused ? 'paused' : 'playing';
  return `replay ×${replay.speed} ${state} ${replay.position}/${replay.total}`;
}

/** Characters of a run id kept when the header is short of room (its random suffix). */
const SHORT_RUN_ID = 6;

/**
 * The run facts that fit `width`: when the full line does not, the title goes first, then the
 * run id shrinks to its unique tail, so status, time, tokens and cost stay readable.
 */
export function headerFacts(props: HeaderProps, width: number): string {
  const { header } = props;
  const runId = header.runId ?? '…';
  const facts = [
    `${statusIcon(header.status)} ${header.status}`,
    formatElapsed(elapsedMs(header, props.now, props.replay !== null)),
    tokensText(header.tokens),
    formatCost(header.costPico, header.unpriced),
  ];
  const mission = `mission ${header.mission ?? '…'}`;
  const candidates = [
    [props.title, mission, `run ${runId}`, ...facts],
    [mission, `run ${runId}`, ...facts],
    [mission, `run …${runId.slice(-SHORT_RUN_ID)}`, ...facts],
    [mission, ...facts],
  ].map((parts) => parts.join(' · '));
  const fitting = candidates.find((line) => textWidth(line) <= width);
  return fitting ?? truncate(candidates.at(-1) ?? '', width);
}

/** One line of run facts. */
export function Header(props: HeaderProps) {
  const pausedText = props.paused
    ? ` ⏸ PAUSED${props.heldCount > 0 ? ` (${props.heldCount} held)` : ''}`
    : '';
  const replay = props.replay === null ? '' : ` ▶ ${replayText(props.replay)}`;
  const main = headerFacts(
    props,
    Math.max(0, props.width - textWidth(pausedText) - textWidth(replay)),
  );
  return (
    <Box width={props.width}>
      <Text bold>{main}</Text>
      <Text color="yellow">{pausedText}</Text>
      <Text color="cyan">{replay}</Text>
    </Box>
  );
}
