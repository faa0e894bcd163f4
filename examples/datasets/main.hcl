variable "openai_api_key" {
  secret = true
}

model "openai" {
  provider = "openai"
  api_key  = vars.openai_api_key
}

agent "scout" {
  model       = models.openai.gpt_5_mini
  personality = load("prompts/scout.md")
  tools       = [builtins.http.get]
  reasoning   = "low"
}

agent "editor" {
  model       = models.openai.gpt_4_1
  personality = "You edit travel notes: precise, friendly, never longer than asked."
}

mission "city_guide" {
  directive = "Write a short guide for each city, consistent with the trip brief"

  commander {
    model = models.openai.gpt_4_1_mini
  }
  agents = [agents.scout, agents.editor]

  inputs = {
    cities = list(object({
      name    = string("City name", true)
      country = string("Country", true)
    }), "Cities to cover", true)
    brief = file("The trip brief (PDF or text)")
  }

  # Notes that survive between runs: what worked, which sources were good.
  memory {
    description = "Lessons from earlier guides: reliable sources, formats readers liked"
  }

  dataset "cities" {
    description = "One entry per city to cover"
    bind_to     = inputs.cities
  }

  dataset "sections" {
    description = "Sections every guide has, written in order"
    schema = {
      title = string("Section title", true)
      words = integer("Target length in words", true)
    }
    items = [
      { title = "Getting around", words = 120 },
      { title = "Where to eat", words = 150 },
      { title = "One perfect day", words = 200 },
    ]
  }

  task "research" {
    objective = "Research ${item.name} (${item.country}) for a first-time visitor; read the trip brief in slot input.brief first"
    agents    = [agents.scout]

    iterator {
      dataset           = datasets.cities
      parallel          = true
      concurrency_limit = 4
      max_retries       = 1
    }

    output = {
      city       = string("City name", true)
      highlights = list(string, "Things worth doing", true)
    }
  }

  task "write" {
    objective  = "Write the guide one section at a time, using the research of every city"
    depends_on = [tasks.research]
    agents     = [agents.editor]

    iterator {
      dataset = datasets.sections
    }

    output = {
      section = string("Section title", true)
      text    = string("The section text", true)
    }
  }
}
