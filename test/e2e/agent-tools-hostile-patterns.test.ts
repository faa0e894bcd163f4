/**
 * Issue 16, item 1, through the real CLI: a scripted agent greps with patterns that
 * backtrack exponentially in JavaScript. The run answers them correctly and finishes, a
 * pattern RE2 cannot take gets an error naming the syntax, and Ctrl-C sent while a hostile
 * grep runs still cancels the run with exit 130.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptTurn } from '../../src/testing/index.ts';
import { cleanUpAll, completedInCallOrder, delegatingTask, reply } from './agent-tools-harness.ts';
import { interruptCli, outcomes, runCli } from './cli-providers-harness.ts';
import { eventsOf } from './engine-harness.ts';
import type { MissionEvent } from '../../src/base/events.ts';

afterEach(cleanUpAll);

const HCL = `
agent "searcher" {
  model       = MODEL
  personality = "You search notes."
}

mission "hostile" {
  commander {
    model = MODEL
  }
  agents     = [agents.searcher]
  scratchpad = true
  task "search" {
    objective = "Search the notes"
  }
}
`;

const AGENT = 'agent:search/searcher';

/** Lines a backtracking engine needs seconds to minutes to reject (27, 26 and 3,000 a's). */
const HOSTILE_TEXT = [
  'a'.repeat(27),
  `${'a'.repeat(26)}!`,
  `${'a'.repeat(2999)}c`,
  `${'a'.repeat(3000)}b`,
].join('\n');

const CREATE = {
  name: 'file_create',
  arguments: { slot: 'scratchpad', path: 'hostile.txt', content: HOSTILE_TEXT },
};

function grep(pattern: string): { name: string; arguments: Record<string, unknown> } {
  return { name: 'file_grep', arguments: { slot: 'scratchpad', pattern } };
}

function agentCompletions(events: readonly MissionEvent[]): Array<[string, string]> {
  return completedInCallOrder(events).flatMap((event) =>
    event.type === 'tool.completed' && event.actor === AGENT ? [[event.tool, event.result]] : [],
  );
}

describe('catastrophic search patterns (CLI)', () => {
  it('answers each hostile grep correctly and the run finishes', async () => {
    const turns: ScriptTurn[] = delegatingTask(
      'search',
      'searcher',
      [
        {
          match: { actor: AGENT },
          toolCalls: [
            CREATE,
            grep('^(a|a)+$'),
            grep('a*a*a*a*a*a*b'),
            grep('^(\\w+\\s?)*$'),
            { name: 'file_search', arguments: { slot: 'scratchpad', pattern: '^(h|h)+ostile$' } },
            grep('(a)\\1'),
          ],
        },
        reply(AGENT, 'Searched.'),
      ],
      'Searched',
    );
    const run = await runCli({ provider: 'openai', hcl: HCL, turns, mission: 'hostile' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    run.server.assertDone();
    expect(agentCompletions(run.events)).toEqual([
      ['file_create', '{"status":"ok","bytes":6058}'],
      ['file_grep', `hostile.txt:1: ${'a'.repeat(27)}\n(1 match)`],
      ['file_grep', `hostile.txt:4: ${'a'.repeat(200)}…\n(1 match)`],
      [
        'file_grep',
        `hostile.txt:1: ${'a'.repeat(27)}\nhostile.txt:3: ${'a'.repeat(200)}…\nhostile.txt:4: ${'a'.repeat(200)}…\n(3 matches)`,
      ],
      ['file_search', '(no matches)'],
      [
        'file_grep',
        JSON.stringify({
          status: 'error',
          error:
            'unsupported pattern syntax: backreference "\\1"; RE2 cannot match a group again: write the repeated text out, e.g. (ab)ab instead of (ab)\\1, or match it loosely, e.g. (\\w+) \\w+',
        }),
      ],
    ]);
    expect(outcomes(run.events)).toEqual({ search: 'succeeded' });
  }, 60_000);

  it('still cancels with exit 130 on Ctrl-C sent while a hostile grep runs', async () => {
    const turns: ScriptTurn[] = delegatingTask(
      'search',
      'searcher',
      [
        { match: { actor: AGENT }, toolCalls: [CREATE, grep('^(a|a)+!$')] },
        // Never answered in time: the run is still going when the signal arrives.
        { ...reply(AGENT, 'Searched.'), delayMs: 60_000 },
      ],
      'Searched',
    );
    const run = await interruptCli(
      { provider: 'openai', hcl: HCL, turns, mission: 'hostile' },
      (_server, stdout) => /"type":"tool\.called".*"tool":"file_grep"/.test(stdout),
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(130);
    expect(outcomes(run.events)).toEqual({ search: 'cancelled' });
    expect(eventsOf(run.events, 'run.finished')).toMatchObject([
      { outcome: 'cancelled', exitCode: 130 },
    ]);
  }, 60_000);
});
