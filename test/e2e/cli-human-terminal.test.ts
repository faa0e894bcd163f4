/**
 * `builtins.human.ask` on a real terminal (tmux) with the line log: the question is asked on
 * the terminal and the typed answer reaches the model; a reply that fits no choice is refused;
 * `--human-timeout` answers for the person; `--no-human` never asks; and a run killed with
 * SIGKILL while the question is open asks it again when resumed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedModelServer } from '../../src/testing/index.ts';
import { writeProject } from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import {
  ASKER,
  closeHumanTest,
  closesAfterTest,
  HUMAN_PROJECT,
  humanEvents,
  outputsOf,
  startHumanServer,
  type HumanScript,
} from './cli-human-harness.ts';
import { journalOf, sortie as sortieJson } from './cli-resume-harness.ts';
import { sortieCommand, TmuxTerminal } from './tmux-terminal.ts';

const REGION = { question: 'Deploy to which region?', choices: ['eu', 'us'] };

let server: ScriptedModelServer | undefined;

afterEach(closeHumanTest);

/** `sortie run PROJECT --plain ARGS` in a fresh tmux terminal. */
async function startOnTerminal(script: HumanScript, args: string) {
  server = await startHumanServer(script);
  const dir = await temporaryDirectory('human-tty');
  const project = await writeProject(HUMAN_PROJECT);
  const stateDir = join(dir, 'state');
  const exitFile = join(dir, 'exit-code');
  const terminal = closesAfterTest(new TmuxTerminal(join(dir, 'tmux.socket'), 'human'));
  const command = [
    `run '${project}' --plain ${args}`,
    `--var api_key=sk-test-human --var base_url=${server.baseUrl('openai')}`,
    `--state-dir '${stateDir}'`,
  ].join(' ');
  // `cat` keeps the pane (and its scrollback) open after the CLI exited.
  terminal.start(`${sortieCommand(command, exitFile)}; cat`);
  const shown = terminal;
  const exitCode = (): string => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8') : '');
  return {
    terminal: shown,
    project,
    stateDir,
    exited: async (): Promise<string> => {
      await shown.until('the CLI to exit', () => exitCode().endsWith('\n'));
      return exitCode();
    },
  };
}

function lastAskerAnswers(): string[] {
  const requests = server?.requests.filter((request) => request.actor === ASKER) ?? [];
  return outputsOf(requests.at(-1)?.body);
}

describe('builtins.human.ask on a plain terminal (tmux)', () => {
  it('asks on the terminal, refuses a reply that fits no choice, and gives the model the typed choice', async () => {
    const run = await startOnTerminal({ questions: [REGION] }, '');
    const { terminal: shown } = run;
    await shown.until('the question', () => shown.screen().includes('(a number or the text)'));
    expect(shown.screen()).toContain(
      `? ${ASKER} asks: Deploy to which region?\n  1) eu\n  2) us\n  (a number or the text)\n>`,
    );
    shown.press('mars');
    shown.press('Enter');
    await shown.until('the refusal', () => shown.screen().includes('is not one of the choices'));
    expect(shown.screen()).toContain('mars\n"mars" is not one of the choices: 1) eu, 2) us\n>');
    shown.press('2');
    shown.press('Enter');
    expect(await run.exited()).toBe('0\n');
    expect(lastAskerAnswers()).toEqual(['us']);
    expect(shown.scrollback()).toContain(`${ASKER}  answered: us`);
  }, 120_000);

  it('--human-timeout answers "[no human response within Ns]" when nobody types', async () => {
    const run = await startOnTerminal({ questions: [REGION] }, '--human-timeout 1');
    expect(await run.exited()).toBe('0\n');
    expect(lastAskerAnswers()).toEqual(['[no human response within 1s]']);
    expect(run.terminal.scrollback()).toContain('(waits 1s)');
  }, 120_000);

  it('--no-human answers "[no human available]" on a terminal without asking', async () => {
    const run = await startOnTerminal({ questions: [REGION] }, '--no-human');
    expect(await run.exited()).toBe('0\n');
    expect(lastAskerAnswers()).toEqual(['[no human available]']);
    const log = run.terminal.scrollback();
    expect(log).toContain(`${ASKER}  not answered: [no human available]`);
    expect(log).not.toContain(`? ${ASKER} asks`);
  }, 120_000);

  it('a run killed while the question is open asks it again when resumed', async () => {
    const run = await startOnTerminal({ questions: [REGION] }, '');
    const { terminal: shown } = run;
    await shown.until('the question', () => shown.screen().includes('(a number or the text)'));
    const [runId] = readdirSync(join(run.stateDir, 'runs'));
    // The journal writes in batches: kill once the question is in it.
    const journaled = (): number => humanEvents(journalOf(run.stateDir, String(runId))).length;
    await shown.until('the question in the journal', () => journaled() === 1);
    const pid = Number(
      readFileSync(join(run.stateDir, 'runs', String(runId), 'writer.pid'), 'utf8'),
    );
    process.kill(pid, 'SIGKILL');
    expect(await run.exited()).toBe('137\n');
    const beforeResume = humanEvents(journalOf(run.stateDir, String(runId)));
    expect(beforeResume.map((event) => event.type)).toEqual(['human.asked']);

    const target = { stateDir: run.stateDir, baseUrl: server!.baseUrl('openai') };
    const resumed = sortieJson(['resume', String(runId), run.project, '--answer', 'eu'], target);
    expect(await resumed.exited, resumed.stderr()).toBe(0);
    expect(humanEvents(journalOf(run.stateDir, String(runId)))).toEqual([
      beforeResume[0],
      beforeResume[0],
      { type: 'human.answered', actor: ASKER, answer: 'eu', how: 'script' },
    ]);
    expect(lastAskerAnswers()).toEqual(['eu']);
  }, 120_000);
});
