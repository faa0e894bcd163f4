mission "research" {
  directive = "Answer a research question with sourced findings, then either publish or ask for more"

  commander {
    model     = models.anthropic.claude_haiku_4_5
    reasoning = "low"
  }
  agents = [agents.researcher, agents.writer]

  inputs = {
    question = string("The research question", true)
    audience = string("Who will read the answer", { default = "a general reader" })
  }

  budget {
    dollars = 2
  }

  task "gather" {
    objective = "Collect sources that answer: ${inputs.question}"
    agents    = [agents.researcher]
  }

  task "analyze" {
    objective  = "Extract the key findings about \"${inputs.question}\" and rate how well the sources support each"
    depends_on = [tasks.gather]
    agents     = [agents.researcher]

    output = {
      findings = list(object({
        claim      = string("The finding", true)
        confidence = number("0 to 1", true)
        sources    = list(string, "URLs", true)
      }), "Findings in order of importance", true)
      gaps = list(string, "What the sources do not answer")
    }
  }

  task "decide" {
    objective  = "Decide whether the findings answer the question well enough to publish"
    depends_on = [tasks.analyze]

    router {
      route {
        target    = tasks.publish
        condition = "The findings answer the question with good confidence"
      }
      route {
        target    = tasks.follow_up
        condition = "Important gaps remain"
      }
    }
  }

  task "publish" {
    objective = "Write the answer for ${inputs.audience}, citing sources"
    agents    = [agents.writer]
  }

  task "follow_up" {
    objective = "List the open questions and where to look next"
    agents    = [agents.writer]
  }
}
