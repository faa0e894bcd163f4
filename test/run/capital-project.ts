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
