/**
 * `builtins.human.ask` in the real CLI's TUI (tmux, scripted model server): the asking actor's
 * row says it waits for you, another agent of the same task finishes its work meanwhile (✓ once its call returned), `a`
 * opens the question, and the choices typed reach the model as a JSON array.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedModelServer } from '../../src/testing/index.ts';
import { writeProject } from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import {
  ASKER,
  closeHumanTest,
  closesAfterTest,
  HELPER,
  HUMAN_PROJECT,
  outputsOf,
  startHumanServer,
} from './cli-human-harness.ts';
import { sortieCommand, TmuxTerminal } from './tmux-terminal.ts';

const CHECKS = {
  question: 'Which checks should run?',
  choices: ['lint', 'unit', 'e2e'],
  multi_select: true,
  additional_context: 'The release is **tomorrow**.',
};

let server: ScriptedModelServer | undefined;

afterEach(closeHumanTest);

describe('builtins.human.ask in the TUI (tmux)', () => {
  it('marks the asking actor, lets the run go on around it, and sends the choices typed', async () => {
    server = await startHumanServer({ questions: [CHECKS], withHelper: true });
    const dir = await temporaryDirectory('human-tui');
    const exitFile = join(dir, 'exit-code');
    const shown = closesAfterTest(new TmuxTerminal(join(dir, 'tmux.socket'), 'tui'));
    const command = [
      `run '${await writeProject(HUMAN_PROJECT)}'`,
      `--var api_key=sk-test-human --var base_url=${server.baseUrl('openai')}`,
      `--state-dir '${join(dir, 'state')}'`,
    ].join(' ');
    shown.start(sortieCommand(command, exitFile));
    const helperRequests = (): number =>
      server?.requests.filter((request) => request.actor === HELPER).length ?? 0;

    await shown.until('the question on the asker', () => shown.screen().includes('asks you'));
    // The helper's two turns (a tool call, then its answer) happen while the question waits.
    await shown.until('the helper to finish', () => helperRequests() === 2);
    await shown.until('the helper done in the tree', () => /✓ helper +│/.test(shown.screen()));
    const waiting = shown.screen();
    expect(waiting).toMatch(/● asker · \? asks you: Which checks shou…│/);
    expect(waiting).toContain(`${ASKER} asks you a question: a to answer`);
    expect(waiting).toMatch(/(^| )a answer$/m);

    shown.press('a');
    await shown.until('the prompt', () => shown.screen().includes('enter sends'));
    const prompt = shown.screen();
    expect(prompt).toContain(
      [
        `? ${ASKER} asks you:`,
        'Which checks should run?',
        '',
        'The release is **tomorrow**.',
        '',
        '  1) lint',
        '  2) unit',
        '  3) e2e',
        '',
        '(several: numbers or texts separated by commas; enter sends, esc answers later)',
        '> ▌',
      ].join('\n'),
    );
    // The reply and its Enter in one send-keys call: one read of the terminal.
    shown.press('3,q,1', 'Enter');
    await shown.until('the refusal', () => shown.screen().includes('is not one of the choices'));
    expect(shown.screen()).toContain('"q" is not one of the choices: 1) lint, 2) unit, 3) e2e');
    expect(shown.screen()).toContain('> 3,q,1▌');
    shown.press('BSpace', 'BSpace', 'BSpace');
    await shown.until('"3," left', () => shown.screen().includes('> 3,▌'));
    shown.press('1', 'Enter');

    await shown.until('the finished run', () => /✓ succeeded/.test(shown.screen()));
    shown.press('q');
    const exitCode = (): string => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8') : '');
    await shown.until('the CLI to exit', () => exitCode().endsWith('\n'));
    expect(exitCode()).toBe('0\n');
    const askerRequests = server.requests.filter((request) => request.actor === ASKER);
    expect(outputsOf(askerRequests.at(-1)?.body)).toEqual(['["lint","e2e"]']);
  }, 120_000);
});
