/**
 * A mission for the trace tests, run by the real CLI with mock answers: a router, a parallel
 * iterated task, a tool error, a failing task, and an agent's reply quoting a secret variable
 * and a protected input (which the run masks, and no exported byte may hold).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReceivedSpan } from '../observe/otlp-receiver.ts';
import { runChild } from './cli-child.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

export const SECRET = 'tok-"s3cret" 42&x';
export const PROTECTED = 'code-77\\9 "q"';

export const HCL = `
variable "openai_api_key" {
  secret = true
}
variable "token" {
  secret = true
}

model "openai" {
  provider = "openai"
  api_key  = vars.openai_api_key
}

agent "helper" {
  model       = models.openai.gpt_4o_mini
  personality = "You help."
}

mission "traced" {
  directive = "Exercise traces"
  commander {
    model = models.openai.gpt_4o_mini
  }
  agents = [agents.helper]
  inputs = {
    code = string("A code", { protected = true })
  }
  dataset "things" {
    schema = {
      name = string("Name", true)
    }
    items = [{ name = "ant" }, { name = "bee" }]
  }
  task "pick" {
    objective = "Pick"
    router {
      route {
        target    = tasks.score
        condition = "Score them"
      }
      route {
        target    = tasks.skip
        condition = "Skip them"
      }
    }
  }
  task "score" {
    objective = "Score \${item.name}"
    iterator {
      dataset  = datasets.things
      parallel = true
    }
  }
  task "skip" {
    objective = "Skip"
  }
  task "doomed" {
    objective  = "Fail"
    depends_on = [tasks.pick]
  }
}
`;

export const MOCK = `
commander:pick:
  - tool: set_subtasks
    arguments: { subtasks: [Pick] }
    usage: { input: 200, output: 10 }
  - tool: call_agent
    arguments: { name: nobody, task: Nothing }
    usage: { input: 210, output: 12 }
  - tool: call_agent
    arguments: { name: helper, task: Say the token }
    usage: { input: 220, output: 14 }
  - tool: complete_subtask
    usage: { input: 230, output: 8 }
  - tool: task_complete
    arguments: { summary: Picked, route: score }
    usage: { input: 240, output: 9 }
agent:*/helper:
  - text: ${JSON.stringify(`The token is ${SECRET} and the code is ${PROTECTED}`)}
    usage: { input: 50, output: 10 }
commander:score[*]:
  - tool: set_subtasks
    arguments: { subtasks: [Score] }
    usage: { input: 100, output: 5 }
  - tool: complete_subtask
    usage: { input: 110, output: 6 }
  - tool: task_complete
    arguments: { summary: Scored }
    usage: { input: 120, output: 7 }
`;

/** A project folder with the mission and its mock answers; returns its paths. */
export function tracedProject(): { directory: string; mock: string; stateDir: string } {
  const directory = temporaryDirectorySync('otel');
  writeFileSync(join(directory, 'main.hcl'), HCL);
  const mock = join(directory, 'mock.yaml');
  writeFileSync(mock, MOCK);
  return { directory, mock, stateDir: join(directory, 'state') };
}

/** `sortie ARGS` in a child, with the OpenTelemetry variables of `env`. */
export function sortieWith(args: string[], env: Record<string, string | undefined>) {
  return runChild(process.execPath, ['bin/sortie.js', ...args], env);
}

/** A span without what differs between two sends of the same spans: nothing but its resource. */
export function comparable(span: ReceivedSpan): Omit<ReceivedSpan, 'resource'> {
  const { resource: _resource, ...rest } = span;
  return rest;
}

/** Spans in a stable order. */
export function sorted(spans: readonly ReceivedSpan[]): ReceivedSpan[] {
  return [...spans].sort((a, b) => (a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0));
}
