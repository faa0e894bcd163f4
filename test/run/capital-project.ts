/**
 * The project the library tests and the package install test run: one agent `clerk` that
 * looks up a country's capital with the given tools, one mission `look`, one task `find`.
 */
export function capitalProject(agentTools: string, extra = ''): string {
  return `variable "api_key" {
  secret = true
}
variable "base_url" {
  default = "https://api.openai.com/v1"
}
variable "token" {
  secret = true
}
model "main" {
  provider = "openai"
  api_key  = vars.api_key
  base_url = vars.base_url
}
agent "clerk" {
  model       = models.main.gpt_4o_mini
  personality = "You look things up."
  tools       = [${agentTools}]
}
mission "look" {
  commander {
    model = models.main.gpt_4o_mini
  }
  agents = [agents.clerk]
  inputs = {
    country = string("Country", true)
  }
  task "find" {
    objective = "Find the capital of \${inputs.country}"
  }
}
${extra}`;
}

/** A mock-model file (`mockModel`) for that mission: the commander's four steps, then `agent`'s. */
export function capitalMock(agent: string): string {
  return `commander:find:
  - tool: set_subtasks
    arguments: { subtasks: [Look] }
  - tool: call_agent
    arguments: { name: clerk, task: Look }
  - tool: complete_subtask
  - tool: task_complete
    arguments: { summary: Paris }
agent:find/clerk:
${agent}`;
}
