/**
 * Issue 29 ("resume after a kill in the middle of a question"): an SDK server's tool elicits a
 * form and the CLI is killed with SIGKILL. With the question still open (plain terminal, tmux),
 * `sortie resume` calls the tool again, the server asks again and gets the answer given then;
 * with the answer already journaled (the call itself unfinished), `sortie resume` calls the
 * tool again and gives the server the journaled answer without asking anyone.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedModelServer } from '../../src/testing/index.ts';
import {
  call,
  delegatingTask,
  reply,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { closeHumanTest, closesAfterTest, humanEvents, outputsOf } from './cli-human-harness.ts';
import { workerProject } from './cli-mcp-harness.ts';
import { journalOf, journalReaches, sortie } from './cli-resume-harness.ts';
import { sortieCommand, TmuxTerminal } from './tmux-terminal.ts';

afterEach(closeHumanTest);

const AGENT = 'agent:work/worker';
const SERVER = join(import.meta.dirname, '../fixtures/mcp/eliciting-server.mjs');
const QUESTION = 'Where should the stay be booked?';

/** A project whose worker calls the eliciting server's `book`; `env` goes to the server. */
async function bookingProject(env: Record<string, string> = {}) {
  const entries = Object.entries(env).map(([name, value]) => `    ${name} = "${value}"`);
  const envBlock = entries.length === 0 ? '' : `  env = {\n${entries.join('\n')}\n  }\n`;
  const block = `mcp "desk" {\n  command = "node"\n  args    = ["${SERVER}"]\n${envBlock}}\n`;
  return writeProject(workerProject(block, '[mcp.desk.book]'));
}

/** The commander delegates, the worker books once, then says so. */
async function bookingModel(): Promise<ScriptedModelServer> {
  return startModelServer(
    delegatingTask(
      'work',
      'worker',
      [call(AGENT, 'mcp_desk_book', {}), reply(AGENT, 'Booked.')],
      'Worked',
    ),
  );
}

/** The tool results of the worker's last model request. */
function lastWorkerOutputs(model: ScriptedModelServer): string[] {
  return outputsOf(model.requests.filter((request) => request.actor === AGENT).at(-1)?.body);
}

describe('MCP elicitation across a kill and `sortie resume`', () => {
  it('asks an open question again after a kill and gives the server the answer given then', async () => {
    const model = await bookingModel();
    const project = await bookingProject();
    const dir = await temporaryDirectory('mcp-elicit-resume');
    const stateDir = join(dir, 'state');
    const exitFile = join(dir, 'exit-code');
    const shown = closesAfterTest(new TmuxTerminal(join(dir, 'tmux.socket'), 'elicit'));
    const command = [
      `run '${project}' --plain`,
      `--var api_key=sk-test-elicit --var base_url=${model.baseUrl('openai')}`,
      `--state-dir '${stateDir}'`,
    ].join(' ');
    shown.start(`${sortieCommand(command, exitFile)}; cat`);
    await shown.until('the question', () => shown.screen().includes(`asks: ${QUESTION}`));
    const [runId = ''] = readdirSync(join(stateDir, 'runs'));
    // The journal writes in batches: kill once the question is in it.
    await shown.until('the question in the journal', () =>
      journalOf(stateDir, runId).some((event) => event.type === 'human.asked'),
    );
    const pid = Number(readFileSync(join(stateDir, 'runs', runId, 'writer.pid'), 'utf8'));
    process.kill(pid, 'SIGKILL');
    const exitCode = (): string => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8') : '');
    await shown.until('the CLI to exit', () => exitCode().endsWith('\n'));
    expect(exitCode()).toBe('137\n');
    const [asked] = humanEvents(journalOf(stateDir, runId));
    expect(humanEvents(journalOf(stateDir, runId))).toEqual([asked]);

    const answer = '{"city":"Bergen","nights":3}';
    const target = { stateDir, baseUrl: model.baseUrl('openai') };
    const resumed = sortie(['resume', runId, project, '--answer', answer], target);
    expect(await resumed.exited, resumed.stderr()).toBe(0);
    expect(humanEvents(journalOf(stateDir, runId))).toEqual([
      asked,
      asked,
      { type: 'human.answered', actor: AGENT, answer, how: 'script' },
    ]);
    expect(lastWorkerOutputs(model)).toEqual([
      '{"action":"accept","content":{"city":"Bergen","nights":3,"breakfast":true}}',
    ]);
    model.assertDone();
  }, 120_000);

  it('gives the server the journaled answer after a kill, without asking again', async () => {
    const model = await bookingModel();
    const dir = await temporaryDirectory('mcp-elicit-answered');
    const target = { stateDir: join(dir, 'state'), baseUrl: model.baseUrl('openai') };
    // Inside the state dir, so the journal's watch also sees the server write it.
    const held = join(target.stateDir, 'held.json');
    const project = await bookingProject({ ELICIT_HOLD_FILE: held });
    const answer = '{"city":"Oslo"}';
    const first = sortie(['run', project, '--answer', answer], target);
    // The answer is journaled before the server gets it: kill once both have it.
    const serverHasAnswer = (): boolean => existsSync(held) && readFileSync(held, 'utf8') !== '';
    await journalReaches(
      first,
      target.stateDir,
      (event) => event.type === 'human.answered' && serverHasAnswer(),
    );
    first.process.kill('SIGKILL');
    expect(await first.exited).toBe(null);
    const runId = await first.runId;
    const before = humanEvents(journalOf(target.stateDir, runId));
    expect(before).toEqual([
      expect.objectContaining({ type: 'human.asked', actor: AGENT, question: QUESTION }),
      { type: 'human.answered', actor: AGENT, answer, how: 'script' },
    ]);
    // The server had the answer; the kill came before the call's result.
    expect(readFileSync(held, 'utf8')).toBe(
      '{"action":"accept","content":{"city":"Oslo","nights":2,"breakfast":true}}',
    );
    const completed = journalOf(target.stateDir, runId).filter(
      (event) => event.type === 'tool.completed' && event.actor === AGENT,
    );
    expect(completed).toEqual([]);

    // Headless with no scripted answer: a question asked again would be declined.
    const resumed = sortie(['resume', runId, project], target);
    expect(await resumed.exited, resumed.stderr()).toBe(0);
    expect(humanEvents(journalOf(target.stateDir, runId))).toEqual(before);
    expect(lastWorkerOutputs(model)).toEqual([
      '{"action":"accept","content":{"city":"Oslo","nights":2,"breakfast":true}}',
    ]);
    model.assertDone();
  }, 120_000);
});
