import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProject } from '../../../src/config/index.ts';
import {
  estimateTokens,
  harnessTokens,
  UnknownTaskError,
} from '../../../src/runtime/prompts/index.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

let dir: string | undefined;
async function project(hcl: string) {
  dir = await temporaryDirectory('tokens');
  await writeFile(join(dir, 'main.hcl'), hcl);
  return loadProject(dir, { env: {} });
}

const PLAIN = `
model "local" {
  provider = "ollama"
  base_url = "http://127.0.0.1:1/v1"
  aliases = { small = "qwen3:8b" }
}
agent "greeter" {
  model = models.local.small
  personality = "You write short, warm greetings. One or two sentences, no emoji."
}
mission "hello" {
  directive = "Greet someone by name"
  commander {
    model = models.local.small
  }
  agents = [agents.greeter]
  task "greet" {
    objective = "Write a greeting"
  }
}
`;

describe('harnessTokens', () => {
  it('a plain task with one agent stays within the 1,500-token target', async () => {
    const config = await project(PLAIN);
    const tokens = harnessTokens(config, 'hello', 'greet');
    expect(tokens).toBe(639);
    expect(tokens).toBeLessThanOrEqual(1500);
  });

  it('counts bytes / 4, rounded up', () => {
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('é')).toBe(1);
  });

  it('names an unknown task', async () => {
    const config = await project(PLAIN);
    expect(() => harnessTokens(config, 'hello', 'nope')).toThrow(UnknownTaskError);
  });
});
