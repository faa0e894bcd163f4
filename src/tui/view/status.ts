/** Status icons and the short figures shown on tree rows and in the header. */
import { formatCount, formatDollars } from '../../present/money.ts';
import type { ActorStatus, IterationProgress } from '../store/state.ts';

const ICONS: Record<ActorStatus, string> = {
  pending: '○',
  running: '●',
  succeeded: '✓',
  failed: '✗',
  cancelled: '⊘',
  skipped: '↷',
};

/** One character for a status. */
export function statusIcon(status: ActorStatus): string {
  return ICONS[status];
}

/** `7/20 ✓6 ✗1` (`7/? …` before the dataset is locked). */
export function progressText(progress: IterationProgress): string {
  const done = progress.succeeded + progress.failed;
  const total = progress.total === null ? '?' : String(progress.total);
  return `${done}/${total} ✓${progress.succeeded} ✗${progress.failed}`;
}

/** Dollars, or `unpriced` marked beside them when some price was unknown. */
export function moneyText(costPico: bigint, unpriced: boolean): string {
  return unpriced ? `${formatDollars(costPico)}*` : formatDollars(costPico);
}

/** `12,400 tok`. */
export function tokensText(tokens: number): string {
  return `${formatCount(tokens)} tok`;
}

/** `mm:ss.s` of a duration, `h:mm:ss` from an hour on. */
export function elapsedText(ms: number): string {
  const tenths = Math.max(0, Math.floor(ms / 100));
  const minutes = Math.floor(tenths / 600);
  const seconds = (tenths % 600) / 10;
  if (minutes >= 60) {
    const wholeSeconds = String(Math.floor(seconds)).padStart(2, '0');
    return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}:${wholeSeconds}`;
  }
  return `${String(minutes).padStart(2, '0')}:${seconds.toFixed(1).padStart(4, '0')}`;
}
