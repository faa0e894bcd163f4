/**
 * `run`, `resume` and `chat` declare the debugger's and the model source's flags in one place:
 * each command's help names every breakpoint kind (chat's once lagged behind route and error).
 */
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/program.ts';

/** The help of `sortie COMMAND`, with its wrapped lines joined. */
async function helpOf(command: string): Promise<string> {
  let out = '';
  const io: CliIo = {
    stdout: (text) => void (out += text),
    stderr: () => undefined,
    env: {},
    stdoutIsTty: false,
    stderrIsTty: false,
  };
  expect(await runCli([command, '--help'], io)).toBe(0);
  return out.replace(/\n {20,}/g, ' ');
}

describe('the debugger and model source flags', () => {
  it.each(['run', 'resume', 'chat'])('are the same in `sortie %s --help`', async (command) => {
    const help = await helpOf(command);
    const flags = ['--step', '--break', '--record', '--replay-model', '--replay-lenient'];
    for (const flag of [...flags, '--mock-model']) expect(help).toContain(`  ${flag}`);
    expect(help).toMatch(
      /--break <SPEC> +breakpoint tool:NAME, actor:ID, model, route, error, stall, loop, cost:USD or tokens:N \(repeatable; terminal UI only\)/,
    );
  });
});
