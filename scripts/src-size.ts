/**
 * Prints the size of src/ as issue 28 measures it ("smaller than 49k lines"; docs/decisions.md,
 * "How src/ is measured against issue 28's 'smaller than 49k'"): the lines of every .ts/.tsx
 * file under src/ (as `wc -l` counts them) without the files issues 25 (probing fixes), 26
 * (serve), 27 (observe), 29 (MCP OAuth, elicitation, sampling, serving), 30 (debugging a
 * commander) and 31 (eval) added after 812afbd, and the total beside it. Run: `node_modules/.bin/tsx scripts/src-size.ts`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SRC = join(import.meta.dirname, '../src');

/** Folders that did not exist at 812afbd: everything in them came with issues 26, 27 and 31. */
const EXCLUDED_FOLDERS = ['serve/', 'observe/', 'eval/'];

/**
 * The files those issues added elsewhere: those that `git log --diff-filter=A 812afbd..` lists
 * for the issues' commits (serve 0bababd, schedules 77c6af3 116a6ea 3c40d9f, attach 1109539,
 * input entries 3b2c4af; traces db01337 0bab09e 1c5057c; MCP OAuth f375f83, elicitation
 * e0c14b1 615ea9b bea885f, notifications 554852a, sampling f1cf24f, serving 7b43bcf 82900fb;
 * eval 1c590e8 56f8bac 6a0e88c c8d75a0 3e34038; issue 25's fixes 2018ffb eba7339 c0a7473
 * 3cdc6ee 53b2af1 aa4316b 444c748 97d6cf5 1156f9c a8caf5c 76147ac; issue 30's signals aa1430d,
 * breakpoints 215574f 4b41bbd, budget raises 0eaff0a, item table 12e983d c27f6de, Costs tab
 * names 123dcdb, chat b4b5644, chat resume 5c1b5b2, typed breakpoints b0fd53b, item table in budget
 * 00fbfe9). runtime/breakpoints.ts (215574f) stays counted: it took over
 * the breakpoint parsing and matching that runtime/gate.ts held at 812afbd.
 */
const EXCLUDED_FILES = [
  'actors/agent/agent-sampler.ts',
  'actors/agent/agent-tool-notices.ts',
  'actors/agent/journaled-answers.ts',
  'actors/chat/chat-messages.ts',
  'actors/chat/chat-session.ts',
  'actors/chat/index.ts',
  'actors/chat/run-chat.ts',
  'actors/gate-holds.ts',
  'base/control-characters.ts',
  'cli/attach-command.ts',
  'cli/attach.ts',
  'cli/breakpoint-tools.ts',
  'cli/chat-command.ts',
  'cli/chat.ts',
  'cli/eval-command.ts',
  'cli/eval-progress.ts',
  'cli/eval-text.ts',
  'cli/eval.ts',
  'cli/export-command.ts',
  'cli/export.ts',
  'cli/follow-run.ts',
  'cli/mcp-command.ts',
  'cli/mcp-serve-command.ts',
  'cli/mcp-status.ts',
  'cli/mcp.ts',
  'cli/open-browser.ts',
  'cli/option-suggestion.ts',
  'cli/remote-gate.ts',
  'cli/remote-questions.ts',
  'cli/resume-line.ts',
  'cli/serve-client.ts',
  'cli/serve-command.ts',
  'cli/serve-mcp-host.ts',
  'cli/serve.ts',
  'cli/verify-evals.ts',
  'cli/verify-schedules.ts',
  'config/decode-mcp-host.ts',
  'config/decode-schedule.ts',
  'config/decode-secret.ts',
  'config/input-entry.ts',
  'config/input-text.ts',
  'config/schedule-inputs.ts',
  'config/schedule-rules.ts',
  'journal/line-checksum.ts',
  'journal/task-durations.ts',
  'machines/commander-holds.ts',
  'machines/failure-gate.ts',
  'models/gemini/streamed-call.ts',
  'present/actor-text.ts',
  'present/schedule-text.ts',
  'present/terminal-text.ts',
  'run/chat-mission.ts',
  'run/run-result.ts',
  'runtime/breakpoint-arming.ts',
  'runtime/budget-raises.ts',
  'runtime/signal-watch.ts',
  'tools/files/deadline.ts',
  'tools/files/regular-file.ts',
  'tools/mcp/mcp-callers.ts',
  'tools/mcp/mcp-elicitation.ts',
  'tools/mcp/mcp-sampling.ts',
  'tools/mcp/oauth/auth-store.ts',
  'tools/mcp/oauth/loopback-callback.ts',
  'tools/mcp/oauth/mcp-login.ts',
  'tools/mcp/oauth/run-auth.ts',
  'tools/mcp/oauth/stored-provider.ts',
  'tui/components/BudgetPrompt.tsx',
  'tui/components/EvalBoard.tsx',
  'tui/components/ItemTable.tsx',
  'tui/eval/eval-board.ts',
  'tui/eval/render-eval-board.ts',
  'tui/hooks/breakpoint-commands.ts',
  'tui/hooks/budget-commands.ts',
  'tui/hooks/use-budget-prompt.ts',
  'tui/hooks/use-item-table.ts',
  'tui/hooks/use-key-queue.ts',
  'tui/key-presses.ts',
  'tui/store/append-list.ts',
  'tui/store/item-vector.ts',
  'tui/store/persistent-map.ts',
  'tui/store/reduce-budgets.ts',
  'tui/store/reduce-item-stats.ts',
  'tui/view/answer-form.ts',
  'tui/view/breakpoint-rows.ts',
  'tui/view/cost-names.ts',
  'tui/view/form-lines.ts',
  'tui/view/item-rows.ts',
  'tui/view/item-table.ts',
];

function lineCount(path: string): number {
  return readFileSync(path, 'utf8').split('\n').length - 1;
}

function isExcluded(path: string): boolean {
  return (
    EXCLUDED_FOLDERS.some((folder) => path.startsWith(folder)) || EXCLUDED_FILES.includes(path)
  );
}

const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .map((path) => path.split('\\').join('/'))
  .filter((path) => /\.tsx?$/.test(path));
let measured = 0;
let total = 0;
for (const path of files) {
  const lines = lineCount(join(SRC, path));
  total += lines;
  if (!isExcluded(path)) measured += lines;
}
const gone = EXCLUDED_FILES.filter((path) => !files.includes(path));
console.log(`src/ by issue 28's measure: ${measured} lines (${total} in total)`);
if (gone.length > 0) console.log(`listed but no longer in src/: ${gone.join(', ')}`);
