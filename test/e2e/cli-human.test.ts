/**
 * `builtins.human.ask` through the real CLI without a person: `--json` and a piped stdin answer
 * `[no human available]`, `--answer` and `--answers FILE` script the answers (a choice, several
 * choices as a JSON array), and a run killed after the answer was journaled resumes with that
 * answer instead of asking again.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedModelServer } from '../../src/testing/index.ts';
import { jsonLines, sortie, writeProject } from './agent-tools-harness.ts';
import { temporaryDirectory, temporaryDirectorySync } from '../helpers/temp-dir.ts';
import {
  ASKER,
  closeHumanTest,
  HUMAN_PROJECT,
  humanEvents,
  outputsOf,
  startHumanServer,
  type HumanScript,
} from './cli-human-harness.ts';
import { journalOf, sortie as sortieKillable } from './cli-resume-harness.ts';
import type { MissionEvent } from '../../src/base/events.ts';

let server: ScriptedModelServer | undefined;

afterEach(closeHumanTest);

const REGION = { question: 'Deploy to which region?', choices: ['eu', 'us'] };
const CHECKS = { question: 'Which checks?', choices: ['lint', 'unit', 'e2e'], multi_select: true };

async function runWith(script: HumanScript, args: string[]) {
  server = await startHumanServer(script);
  const dir = await temporaryDirectory('human');
  const run = await sortie([
    'run',
    await writeProject(HUMAN_PROJECT),
    ...args,
    '--var',
    'api_key=test-key',
    '--var',
    `base_url=${server.baseUrl('openai')}`,
    '--state-dir',
    join(dir, 'state'),
  ]);
  const askerRequests = server.requests.filter((request) => request.actor === ASKER);
  return { run, answers: outputsOf(askerRequests.at(-1)?.body) };
}

describe('builtins.human.ask without a person', () => {
  it('answers "[no human available]" with --json and journals the question and the answer', async () => {
    const { run, answers } = await runWith({ questions: [REGION] }, ['--json']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(answers).toEqual(['[no human available]']);
    expect(humanEvents(jsonLines(run.stdout) as unknown as MissionEvent[])).toEqual([
      {
        type: 'human.asked',
        actor: ASKER,
        question: 'Deploy to which region?',
        choices: ['eu', 'us'],
        multiSelect: false,
        shortSummary: null,
        additionalContext: null,
        timeoutSeconds: null,
      },
      { type: 'human.answered', actor: ASKER, answer: '[no human available]', how: 'unavailable' },
    ]);
  });

  it('--answer scripts the answers in order: a choice by number, several choices as a JSON array', async () => {
    const { run, answers } = await runWith({ questions: [REGION, CHECKS] }, [
      '--json',
      '--answer',
      '2',
      '--answer',
      'e2e, lint',
    ]);
    expect(run.status).toBe(0);
    expect(answers).toEqual(['us', '["lint","e2e"]']);
  });

  it('--answers FILE answers by question text in the line log; a question it has no answer for gets the notice', async () => {
    const dir = await temporaryDirectory('answers');
    const file = join(dir, 'answers.yaml');
    writeFileSync(file, '- question: region\n  answer: eu\n');
    const { run, answers } = await runWith({ questions: [CHECKS, REGION] }, [
      '--plain',
      '--answers',
      file,
    ]);
    expect(run.status).toBe(0);
    expect(answers).toEqual(['[no human available]', 'eu']);
    const lines = run.stdout.split('\n').filter((line) => /asks the person|answered/.test(line));
    expect(lines.map((line) => line.replace(/^\S+\s+/, ''))).toEqual([
      `${ASKER}  asks the person: Which checks? [lint | unit | e2e] (several)`,
      `${ASKER}  not answered: [no human available]`,
      `${ASKER}  asks the person: Deploy to which region? [eu | us]`,
      `${ASKER}  answered by the script: eu`,
    ]);
  });
});

describe('builtins.human.ask and resume', () => {
  it('a run killed after the answer resumes with the journaled answer and does not ask again', async () => {
    const stateDir = temporaryDirectorySync('human-state');
    let kill: (() => void) | undefined;
    server = await startHumanServer({
      questions: [REGION],
      // The asker's turn after the answer: the first run dies here, before the reply.
      onAsker: (answers) => {
        if (answers.length === 1 && kill !== undefined) {
          kill();
          return { delayMs: 60_000 };
        }
      },
    });
    const project = await writeProject(HUMAN_PROJECT);
    const target = { stateDir, baseUrl: server.baseUrl('openai') };
    const first = sortieKillable(['run', project, '--answer', 'eu'], target);
    kill = () => first.process.kill('SIGKILL');
    const runId = await first.runId;
    expect(await first.exited).toBeNull();
    kill = undefined;
    const beforeResume = journalOf(stateDir, runId);
    expect(humanEvents(beforeResume).map((event) => event.type)).toEqual([
      'human.asked',
      'human.answered',
    ]);

    const resumed = sortieKillable(['resume', runId, project, '--answer', 'us'], target);
    expect(await resumed.exited, resumed.stderr()).toBe(0);
    const journal = journalOf(stateDir, runId);
    // Still only the first question and its answer: nothing was asked after the restart.
    expect(humanEvents(journal)).toEqual(humanEvents(beforeResume));
    const askerRequests = server.requests.filter((request) => request.actor === ASKER);
    expect(outputsOf(askerRequests.at(-1)?.body)).toEqual(['eu']);
  }, 60_000);
});
