import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { readRunState, resumedInputs } from '../../src/run/resume-state.ts';
import { loadProject } from '../../src/config/index.ts';
import { UsageError } from '../../src/base/errors.ts';
import { runTotals } from '../../src/journal/run-totals.ts';
import type { RunJournalState } from '../../src/journal/restore.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

let dir: string;

beforeEach(async () => {
  dir = await temporaryDirectory('resume-cli');
});

const PROJECT = `
model "main" {
  provider = "openai"
  api_key = "sk-unused"
}
mission "m" {
  commander {
    model = models.main.gpt_4o_mini
  }
  inputs = {
    topic = string("Topic", true)
    token = string("Token", { protected = true, required = true })
    note  = string("Note", { protected = true, default = "none" })
  }
  task "t" {
    objective = "Work on \${inputs.topic}"
  }
}
`;

function state(inputs: Record<string, unknown>): RunJournalState {
  return {
    runId: 'r1',
    lastSeq: 9,
    missions: [{ name: 'm', inputs, chainedFrom: null, outcome: null }],
    journals: new Map(),
    finished: null,
    totals: runTotals([]),
    answeredTurns: new Map(),
    forkedFrom: null,
    pinned: null,
  };
}

describe('resumedInputs', () => {
  it('takes plain inputs from the journal and protected ones from --input only', async () => {
    await writeFile(join(dir, 'main.hcl'), PROJECT);
    const mission = (await loadProject(dir, { vars: {}, env: {} })).missions.get('m')!;
    const journaled = state({ topic: 'ants', token: '••••', note: '••••' });
    expect(resumedInputs(mission, journaled, { token: 'secret-1' })).toEqual({
      topic: 'ants',
      token: 'secret-1',
    });
    expect(resumedInputs(mission, journaled, { token: 't', topic: 'bees' })).toEqual({
      topic: 'bees',
      token: 't',
    });
  });

  it('asks for a required protected input again, naming it and the flag', async () => {
    await writeFile(join(dir, 'main.hcl'), PROJECT);
    const mission = (await loadProject(dir, { vars: {}, env: {} })).missions.get('m')!;
    const attempt = () => resumedInputs(mission, state({ topic: 'ants', token: '••••' }), {});
    expect(attempt).toThrow(UsageError);
    expect(attempt).toThrow(
      'the journal does not keep protected or file inputs; mission "m" needs "token" again',
    );
    try {
      attempt();
    } catch (error) {
      expect((error as UsageError).hint).toBe('pass --input token=VALUE');
    }
  });
});

describe('readRunState', () => {
  async function journal(runId: string, lines: object[]): Promise<string> {
    const runDir = join(dir, 'runs', runId);
    await mkdir(runDir, { recursive: true });
    await writeFile(
      join(runDir, 'journal.jsonl'),
      lines
        .map((line, index) =>
          JSON.stringify({ seq: index + 1, time: 't', runId, actor: 'run', ...line }),
        )
        .join('\n') + '\n',
    );
    return runDir;
  }

  it('refuses a run whose journal writer is still alive', async () => {
    const runDir = await journal('r-live', [{ type: 'run.started', mission: 'm', resumed: false }]);
    await writeFile(join(runDir, 'writer.pid'), `${process.pid}\n`);
    await expect(readRunState(dir, 'r-live')).rejects.toThrow(
      'run r-live is still running: another sortie process is writing its journal',
    );
  });

  it('refuses a run that succeeded, and one that never started its mission', async () => {
    await journal('r-done', [
      { type: 'run.started', mission: 'm', resumed: false },
      { type: 'run.finished', outcome: 'succeeded' },
    ]);
    await expect(readRunState(dir, 'r-done')).rejects.toThrow(
      'run r-done succeeded; there is nothing to resume',
    );
    await journal('r-empty', [{ type: 'run.started', mission: 'm', resumed: false }]);
    await expect(readRunState(dir, 'r-empty')).rejects.toThrow(
      'run r-empty stopped before its mission started; run it again instead',
    );
  });

  it('reads a crashed run: its missions, last seq, and a dead writer is no obstacle', async () => {
    const runDir = await journal('r-crash', [
      { type: 'run.started', mission: 'm', resumed: false },
      { type: 'mission.started', mission: 'm', inputs: { topic: 'ants' }, chainedFrom: null },
    ]);
    await writeFile(join(runDir, 'writer.pid'), '999999999\n');
    const read = await readRunState(dir, 'r-cr');
    expect(read.runId).toBe('r-crash');
    expect(read.lastSeq).toBe(2);
    expect(read.missions).toEqual([
      { name: 'm', inputs: { topic: 'ants' }, chainedFrom: null, outcome: null },
    ]);
  });
});
