/**
 * The files `sortie init` writes: a project that runs at once offline with its mock model
 * (`sortie run DIR --mock-model DIR/mock.yaml`) and with a real model once a key is set.
 */

const MAIN_HCL = `# A first sortie project: one mission, one task, one agent.
# Offline: sortie run . --mock-model mock.yaml    With a key: OPENAI_API_KEY=... sortie run .

variable "openai_api_key" {
  secret      = true
  description = "OpenAI API key (or set OPENAI_API_KEY)"
}

model "openai" {
  provider = "openai"
  api_key  = vars.openai_api_key
}

agent "greeter" {
  model       = models.openai.gpt_4o_mini
  personality = "You write short, warm greetings. One or two sentences, no emoji."
}

mission "hello" {
  directive = "Greet someone by name"

  commander {
    model = models.openai.gpt_4o_mini
  }
  agents = [agents.greeter]

  inputs = {
    name = string("Who to greet", { default = "world" })
  }

  task "greet" {
    objective = "Write a greeting for \${inputs.name}"
  }
}
`;

const MOCK_YAML = `# Scripted model answers for trying the mission offline (docs/testing.md, "Mock models"):
#   sortie run . --mock-model mock.yaml
# Keys are actor ids (commander:TASK, agent:TASK/AGENT; * is any text); each actor's answers
# are used in order. Change them, or add answers, to try other paths through the mission.
commander:greet:
  - tool: set_subtasks
    arguments: { subtasks: [Ask the greeter for a greeting] }
  - tool: call_agent
    arguments: { name: greeter, task: "Write a short, warm greeting for world." }
  - tool: complete_subtask
  - tool: task_complete
    arguments: { summary: "The greeter wrote: Hello, world! Good to have you here." }
agent:*/greeter:
  - text: Hello, world! Good to have you here.
    usage: { input: 120, output: 12 }
`;

const README = (name: string) => `# ${name}

A sortie project made by \`sortie init\`. Try it offline, with no key:
\`sortie run . --mock-model mock.yaml\`; with a real model: \`OPENAI_API_KEY=... sortie run .\`.
`;

/** File name → contents, in the order they are written and listed. */
export function initFiles(projectName: string): Array<[string, string]> {
  return [
    ['main.hcl', MAIN_HCL],
    ['mock.yaml', MOCK_YAML],
    ['README.md', README(projectName)],
    ['.gitignore', '.sortie/\n'],
  ];
}
