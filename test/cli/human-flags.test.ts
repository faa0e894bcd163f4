import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { humanOptions } from '../../src/cli/human-flags.ts';
import type { CliIo } from '../../src/cli/io.ts';
import { AnswerScript } from '../../src/runtime/answer-script.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

function io(stdinIsTty: boolean): CliIo {
  const ignore = (): void => undefined;
  return {
    stdout: ignore,
    stderr: ignore,
    env: {},
    stdoutIsTty: true,
    stderrIsTty: true,
    stdinIsTty,
  };
}

async function answersFile(text: string): Promise<string> {
  const dir = await temporaryDirectory('answers');
  await writeFile(join(dir, 'answers.yaml'), text);
  return dir;
}

describe('who answers the questions to the person', () => {
  it('a person answers only on a terminal stdin, without --json and without --no-human', async () => {
    expect((await humanOptions({}, 'tui', io(true), '/')).available).toBe(true);
    expect((await humanOptions({}, 'plain', io(true), '/')).available).toBe(true);
    expect((await humanOptions({}, 'plain', io(false), '/')).available).toBe(false);
    expect((await humanOptions({}, 'json', io(true), '/')).available).toBe(false);
    expect((await humanOptions({ human: false }, 'tui', io(true), '/')).available).toBe(false);
  });

  it('--human-timeout takes seconds above 0', async () => {
    const options = await humanOptions({ humanTimeout: '1.5' }, 'plain', io(true), '/');
    expect(options.timeoutSeconds).toBe(1.5);
    await expect(humanOptions({ humanTimeout: '0' }, 'plain', io(true), '/')).rejects.toThrow(
      '--human-timeout must be a number of seconds above 0, not "0"',
    );
  });

  it('--answers FILE entries come before --answer flags; matched entries answer what they match', async () => {
    const dir = await answersFile(
      '- eu\n- [a, c]\n- { answer: "no", question: deploy }\n- { answer: "ok", actor: reviewer }\n',
    );
    const { script } = await humanOptions(
      { answers: 'answers.yaml', answer: ['last'] },
      'json',
      io(false),
      dir,
    );
    expect(script).toBeInstanceOf(AnswerScript);
    const take = (actor: string, question: string) => script?.take(actor, question);
    expect(take('agent:t/writer', 'Shall we DEPLOY now?')).toEqual({
      answer: 'no',
      source: 'the answer for question "deploy"',
    });
    expect(take('agent:t/reviewer', 'Looks good?')).toEqual({
      answer: 'ok',
      source: 'the answer for actor reviewer',
    });
    expect(take('agent:t/writer', 'Region?')).toEqual({
      answer: 'eu',
      source: 'scripted answer 1',
    });
    expect(take('agent:t/writer', 'Which?')).toEqual({
      answer: ['a', 'c'],
      source: 'scripted answer 2',
    });
    expect(take('agent:t/writer', 'More?')).toEqual({
      answer: 'last',
      source: 'scripted answer 3',
    });
    expect(take('agent:t/writer', 'Again?')).toBeUndefined();
  });

  it('a bad answers file is a usage error naming the entry', async () => {
    const dir = await answersFile('- { answer: "x", who: me }\n');
    await expect(humanOptions({ answers: 'answers.yaml' }, 'json', io(false), dir)).rejects.toThrow(
      `--answers: ${join(dir, 'answers.yaml')} entry 1 has unknown key "who"`,
    );
    const notList = await answersFile('answer: x\n');
    await expect(
      humanOptions({ answers: 'answers.yaml' }, 'json', io(false), notList),
    ).rejects.toThrow(`--answers: ${join(notList, 'answers.yaml')} must hold a list of answers`);
    await expect(humanOptions({ answers: 'missing.json' }, 'json', io(false), dir)).rejects.toThrow(
      `--answers: cannot read ${join(dir, 'missing.json')} (ENOENT)`,
    );
  });
});
