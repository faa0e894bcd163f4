/**
 * Skills through the real CLI and the scripted model server: an agent loads a skill and calls
 * its tool in the next turn (offered from the request after the load, not before), an unknown
 * skill and a second load are refused; and `sortie resume` after a SIGKILL in the middle of a
 * skill's use gives the resumed agent its loaded skill and the skill's tools.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { summarizeRun } from '../../src/journal/summary.ts';
import type { RecordedRequest } from '../../src/testing/index.ts';
import {
  call,
  cleanUpAll,
  delegatingTask,
  errorText,
  jsonLines,
  reply,
  sortie,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { localServerBlock, modelArgs, pidsIn } from './cli-mcp-harness.ts';
import { journalOf, killAtModelRequest, resumeToEnd } from './cli-resume-harness.ts';

afterEach(cleanUpAll);

const HCL = `
skill "clock" {
  description  = "Tell the time"
  instructions = load("skills/clock.md")
  tools        = [builtins.utils.current_time]
}

agent "keeper" {
  model       = MODEL
  personality = "You keep time."
  skills      = [skills.clock]
}

mission "time" {
  commander {
    model = MODEL
  }
  agents = [agents.keeper]
  task "tell" {
    objective = "Tell the time"
  }
}
`;

const AGENT = 'agent:tell/keeper';
const OWN_TOOLS = [
  'load_skill',
  'set_dataset',
  'dataset_sample',
  'dataset_count',
  'result_to_dataset',
];
const WITH_CLOCK = [...OWN_TOOLS, 'builtins_utils_current_time'];
const LOADED =
  'Skill "clock" loaded. Tools it adds, offered from your next turn: builtins_utils_current_time.\n\n# Skill: clock\n\nAnswer in UTC.';

async function skillProject(): Promise<string> {
  const project = await writeProject(HCL);
  await mkdir(join(project, 'skills'));
  await writeFile(join(project, 'skills', 'clock.md'), 'Answer in UTC.\n');
  return project;
}

function toolsOf(request: RecordedRequest | undefined): string[] {
  const tools = (request?.body as { tools?: Array<{ name: string }> } | undefined)?.tools ?? [];
  return tools.map((tool) => tool.name);
}

function agentRequests(requests: readonly RecordedRequest[]): RecordedRequest[] {
  return requests.filter((request) => request.actor === AGENT);
}

describe('skills (CLI)', () => {
  it('loads a skill and calls its tool next turn; an unknown skill and a second load are refused', async () => {
    const project = await skillProject();
    const server = await startModelServer(
      delegatingTask(
        'tell',
        'keeper',
        [
          call(AGENT, 'load_skill', { name: 'clocks' }),
          call(AGENT, 'load_skill', { name: 'clock' }),
          {
            match: { actor: AGENT },
            toolCalls: [
              { name: 'load_skill', arguments: { name: 'clock' } },
              { name: 'builtins_utils_current_time', arguments: {} },
            ],
          },
          reply(AGENT, 'It is noon UTC.'),
        ],
        'Told',
      ),
    );
    const stateDir = join(await temporaryDirectory('state'), 'state');
    const run = await sortie([
      'run',
      project,
      '--json',
      '--var',
      'api_key=test-key',
      '--var',
      `base_url=${server.baseUrl('openai')}`,
      '--state-dir',
      stateDir,
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    server.assertDone();
    const completed = jsonLines(run.stdout).filter(
      (event) => event.type === 'tool.completed' && event.actor === AGENT,
    );
    expect(completed.map((event) => [event.tool, event.isError])).toEqual([
      ['load_skill', true],
      ['load_skill', false],
      ['load_skill', true],
      ['builtins_utils_current_time', false],
    ]);
    expect(completed[0]?.result).toBe(
      errorText('unknown skill "clocks" (did you mean "clock"?); your skills: clock'),
    );
    expect(completed[1]?.result).toBe(LOADED);
    expect(completed[2]?.result).toBe(
      errorText(
        'skill "clock" is already loaded: its instructions are in your context and its tools are offered',
      ),
    );
    // The tool is offered from the request after the load, not before.
    expect(agentRequests(server.requests).map(toolsOf)).toEqual([
      OWN_TOOLS,
      OWN_TOOLS,
      WITH_CLOCK,
      WITH_CLOCK,
    ]);
  }, 60_000);

  it('resumed after a SIGKILL between the load and the tool call, the agent still has the skill and its tool', async () => {
    const project = await skillProject();
    const stateDir = join(await temporaryDirectory('state'), 'state');
    const commander = 'commander:tell';
    const first = await startModelServer([
      call(commander, 'set_subtasks', { subtasks: ['Tell it'] }),
      call(commander, 'call_agent', { name: 'keeper', task: 'tell the time' }),
      call(AGENT, 'load_skill', { name: 'clock' }),
      // Never answered: the CLI is killed while it waits for this reply.
      { match: { actor: AGENT }, text: 'never sent', delayMs: 600_000 },
    ]);
    const runId = await killAtModelRequest(
      project,
      { stateDir, baseUrl: first.baseUrl('openai') },
      { actor: AGENT, turn: 2 },
    );

    const second = await startModelServer([
      call(AGENT, 'builtins_utils_current_time'),
      reply(AGENT, 'It is noon UTC.'),
      call(commander, 'complete_subtask'),
      call(commander, 'task_complete', { summary: 'Told' }),
    ]);
    await resumeToEnd(runId, project, { stateDir, baseUrl: second.baseUrl('openai') });
    second.assertDone();
    // The resumed agent's requests offer the skill's tool, and it loaded nothing again.
    expect(agentRequests(second.requests).map(toolsOf)).toEqual([WITH_CLOCK, WITH_CLOCK]);
    const journal = journalOf(stateDir, runId);
    const agentTools = journal.flatMap((event) =>
      event.type === 'tool.completed' && event.actor === AGENT ? [[event.tool, event.isError]] : [],
    );
    expect(agentTools).toEqual([
      ['load_skill', false],
      ['builtins_utils_current_time', false],
    ]);
    expect(summarizeRun(journal).status).toBe('succeeded');
  }, 60_000);

  it("offers an MCP server's tool that a skill adds from the request after the load, and calls it", async () => {
    const dir = await temporaryDirectory('skill-mcp');
    const pidFile = join(dir, 'pids');
    const project = await writeProject(`${localServerBlock(pidFile)}
agent "keeper" {
  model       = MODEL
  personality = "You keep time."

  skill "echoing" {
    description  = "Repeat things"
    instructions = "Echo what you are told."
    tools        = [mcp.local.echo]
  }
}

mission "time" {
  commander {
    model = MODEL
  }
  agents = [agents.keeper]
  task "tell" {
    objective = "Tell the time"
  }
}
`);
    const server = await startModelServer(
      delegatingTask(
        'tell',
        'keeper',
        [
          call(AGENT, 'mcp_local_echo', { text: 'too early' }),
          call(AGENT, 'load_skill', { name: 'echoing' }),
          call(AGENT, 'mcp_local_echo', { text: 'ping' }),
          reply(AGENT, 'Echoed.'),
        ],
        'Told',
      ),
    );
    const run = await sortie(['run', project, '--json', ...modelArgs(server, join(dir, 'state'))]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    server.assertDone();
    const completed = jsonLines(run.stdout).filter(
      (event) => event.type === 'tool.completed' && event.actor === AGENT,
    );
    expect(completed.map((event) => [event.tool, event.result])).toEqual([
      [
        'mcp_local_echo',
        errorText(
          'tool "mcp_local_echo" comes with skill "echoing": call load_skill with name "echoing" first',
        ),
      ],
      [
        'load_skill',
        'Skill "echoing" loaded. Tools it adds, offered from your next turn: mcp_local_echo.\n\n# Skill: echoing\n\nEcho what you are told.',
      ],
      ['mcp_local_echo', 'ping'],
    ]);
    expect(agentRequests(server.requests).map(toolsOf)).toEqual([
      OWN_TOOLS,
      OWN_TOOLS,
      [...OWN_TOOLS, 'mcp_local_echo'],
      [...OWN_TOOLS, 'mcp_local_echo'],
    ]);
    // The server started once, with the agent, although only the skill uses it.
    expect(await pidsIn(pidFile)).toHaveLength(1);
  }, 60_000);
});
