import type { Config } from '../config/config-types.ts';
import { harnessTokens } from '../runtime/prompts/harness-tokens.ts';
import { alignRows } from '../present/columns.ts';
import { formatCount } from '../present/numbers.ts';

/**
 * `sortie verify --tokens`: per task, the fixed tokens its commander carries into every turn
 * (system prompt + commander tool schemas, estimated as UTF-8 bytes / 4).
 */
export function formatHarnessTokens(config: Config): string {
  const rows = [...config.missions.values()].flatMap((mission) =>
    [...mission.tasks.values()].map((task) => [
      `${mission.name}/${task.name}`,
      formatCount(harnessTokens(config, mission.name, task.name)),
    ]),
  );
  if (rows.length === 0) return '';
  const lines = alignRows(rows, new Set([1])).map((row) => `  ${row.join('  ')}`);
  return `commander harness tokens per task (system prompt + tool schemas, bytes / 4):\n${lines.join('\n')}\n`;
}
