/**
 * Issue 29 item 2 in the real CLI's terminal UI (tmux, 80×24, NO_COLOR): an SDK server's tool
 * asks for a form; `a` shows it with the defaults filled in, sending it without the required
 * field names that field in the form, and the fields filled reach the server as exactly that
 * JSON object; the run then finishes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  call,
  delegatingTask,
  reply,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { closeHumanTest, closesAfterTest, outputsOf } from './cli-human-harness.ts';
import { workerProject } from './cli-mcp-harness.ts';
import { sortieCommand, TmuxTerminal } from './tmux-terminal.ts';

afterEach(closeHumanTest);

const AGENT = 'agent:work/worker';
const SERVER = join(import.meta.dirname, '../fixtures/mcp/eliciting-server.mjs');

describe('MCP elicitation in the TUI (tmux)', () => {
  it('fills the form of a server question and sends the server exactly its fields', async () => {
    const model = await startModelServer(
      delegatingTask(
        'work',
        'worker',
        [call(AGENT, 'mcp_desk_book', {}), reply(AGENT, 'Booked.')],
        'Worked',
      ),
    );
    const block = `mcp "desk" {\n  command = "node"\n  args    = ["${SERVER}"]\n}\n`;
    const project = await writeProject(workerProject(block, '[mcp.desk.book]'));
    const dir = await temporaryDirectory('mcp-elicit-tui');
    const exitFile = join(dir, 'exit-code');
    const shown = closesAfterTest(new TmuxTerminal(join(dir, 'tmux.socket'), 'form'));
    const command = [
      `run '${project}'`,
      `--var api_key=sk-test-form --var base_url=${model.baseUrl('openai')}`,
      `--state-dir '${join(dir, 'state')}'`,
    ].join(' ');
    shown.start(sortieCommand(command, exitFile), { columns: 80, rows: 24 });

    await shown.until('the question', () => shown.screen().includes('asks you a question'));
    shown.press('a');
    await shown.until('the form', () => shown.screen().includes('tab/↑/↓ field'));
    expect(shown.screen()).toContain(
      [
        `? ${AGENT} asks you:`,
        'Where should the stay be booked?',
        '',
        '> city*: ▌  (text: The city)',
        '  nights: 2  (a whole number)',
        '  breakfast: ‹ yes ›  (yes or no)',
        '',
        '(* required; tab/↑/↓ field, ←/→ value; enter sends, esc answers later)',
      ].join('\n'),
    );
    shown.press('Enter');
    await shown.until('the problem', () => shown.screen().includes('\ncity is required'));
    shown.press('Bergen', 'Tab', 'BSpace', '4', 'Tab', 'Right');
    await shown.until('the fields filled', () => shown.screen().includes('breakfast: ‹ no ›'));
    expect(shown.screen()).toContain(
      [
        '  city*: Bergen  (text: The city)',
        '  nights: 4  (a whole number)',
        '> breakfast: ‹ no ›  (yes or no)',
      ].join('\n'),
    );
    shown.press('Enter');

    await shown.until('the finished run', () => /✓ succeeded/.test(shown.screen()));
    shown.press('q');
    const exitCode = (): string => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8') : '');
    await shown.until('the CLI to exit', () => exitCode().endsWith('\n'));
    expect(exitCode()).toBe('0\n');
    const last = model.requests.filter((request) => request.actor === AGENT).at(-1);
    expect(outputsOf(last?.body)).toEqual([
      '{"action":"accept","content":{"city":"Bergen","nights":4,"breakfast":false}}',
    ]);
    model.assertDone();
  }, 120_000);
});
