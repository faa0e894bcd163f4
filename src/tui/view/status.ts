/** Status icons and the short figures shown on tree rows and in the header. */
import { formatCount } from '../../present/numbers.ts';
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
  const total = progress.total === null ? '?' : formatCount(progress.total);
  return `${formatCount(done)}/${total} ✓${formatCount(progress.succeeded)} ✗${formatCount(progress.failed)}`;
}

/** `12,400 tok`. */
export function tokensText(tokens: number): string {
  return `${formatCount(tokens)} tok`;
}
