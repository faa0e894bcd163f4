/**
 * `--break tool:NAME` resolved against the project when a run is prepared: the name a `tool`
 * block has in HCL stops at the tool the model calls (`tools_weather`), and a name of no tool
 * of the project is a usage error with the closest name.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/base/errors.ts';
import type { CliIo } from '../../src/cli/io.ts';
import { prepareRun } from '../../src/cli/run-command.ts';
import type { RunFlags } from '../../src/cli/run.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const PROJECT = `variable "openai_api_key" {
  secret = true
}
model "openai" {
  provider = "openai"
  api_key  = vars.openai_api_key
}
tool "weather" {
  implements  = builtins.http.get
  description = "Weather"
  url         = "https://wttr.in"
}
mcp "files" {
  command = "node"
  args    = ["server.js"]
}
agent "forecaster" {
  model       = models.openai.gpt_4o_mini
  personality = "You forecast."
  tools       = [tools.weather, mcp.files.read]
}
mission "m" {
  commander {
    model = models.openai.gpt_4o_mini
  }
  agents = [agents.forecaster]
  task "t" {
    objective = "Forecast"
  }
}
`;

const directory = temporaryDirectorySync('breakpoints');
writeFileSync(join(directory, 'main.hcl'), PROJECT);

/** An interactive terminal, where --break is allowed. */
const io: CliIo = {
  stdout: () => undefined,
  stderr: () => undefined,
  env: {},
  stdoutIsTty: true,
  stderrIsTty: true,
};

async function prepared(breakpoints: string[]): Promise<string[]> {
  const flags: RunFlags = {
    chain: true,
    break: breakpoints,
    mockModel: 'mock.yaml',
    human: false,
    stateDir: join(directory, 'state'),
  };
  const run = await prepareRun({ directory, mission: 'm', flags }, io, {
    cwd: directory,
    signals: process,
    exitNow: () => undefined,
  });
  return run.breakpoints;
}

describe('--break tool:NAME', () => {
  it("stops at a tool block's tool by its HCL name, its reference or its model name", async () => {
    expect(
      await prepared([
        'tool:weather',
        'tool:tools.weather',
        'tool:tools_weather',
        'tool:call_agent',
        'tool:builtins.http.get',
        'tool:mcp.files.read',
        'tool:mcp_files_write',
        'model',
        'actor:commander:t',
      ]),
    ).toEqual([
      'tool:tools_weather',
      'tool:tools_weather',
      'tool:tools_weather',
      'tool:call_agent',
      'tool:builtins_http_get',
      'tool:mcp_files_read',
      'tool:mcp_files_write',
      'model',
      'actor:commander:t',
    ]);
  });

  it('refuses a tool the project does not have, with the closest name (exit 2)', async () => {
    const attempt = prepared(['tool:wether']);
    await expect(attempt).rejects.toBeInstanceOf(UsageError);
    await expect(prepared(['tool:wether'])).rejects.toMatchObject({
      message:
        'breakpoint "tool:wether" names no tool of this project (did you mean "tool:weather"?)',
      hint: 'name a tool as models see it (call_agent, tools_weather) or as the HCL writes it (weather, tools.weather, builtins.http.get, mcp.SERVER.TOOL)',
    });
    await expect(prepared(['tool:call_agnet'])).rejects.toMatchObject({
      message:
        'breakpoint "tool:call_agnet" names no tool of this project (did you mean "tool:call_agent"?)',
    });
  });
});
