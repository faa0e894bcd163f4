# Is a formal greeter as good as the warm one? Runnable offline with scripted answers:
#   sortie eval examples/hello --mock-model examples/hello/.evals/mock.yaml
eval "greetings" {
  mission     = "hello"
  repeat      = 2
  concurrency = 4

  case "ada" {
    inputs = { name = "Ada" }
    expect "summary" {
      contains = "Ada"
    }
  }
  case "grace" {
    inputs = { name = "Grace" }
    expect "summary" {
      contains = "Grace"
    }
  }

  variant "warm" {}
  variant "formal" {
    personalities = { greeter = "You write formal greetings. One sentence, no emoji." }
  }

  expect "max" {
    commander_turns     = 4
    rejected_tool_calls = 0
  }
  expect "judge" {
    model     = models.openai.gpt_4o_mini
    rubric    = load("rubric.md")
    threshold = 0.5
  }
}
