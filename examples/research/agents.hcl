agent "researcher" {
  model       = models.anthropic.claude_sonnet_4_6
  personality = load("prompts/researcher.md")
  tools       = [builtins.http.get, builtins.utils.current_time]
  reasoning   = "medium"
}

agent "writer" {
  model       = models.openai.gpt_4_1_mini
  personality = "You turn findings into clear prose for a busy reader. Short paragraphs, no filler."
}
