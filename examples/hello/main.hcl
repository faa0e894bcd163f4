# The smallest useful mission: one commander, one agent, one task.

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
    objective = "Write a greeting for ${inputs.name}"
  }
}
