# An agent with tools from an MCP server (the bookshop's own catalog server, shipped in
# server/bookshop.mjs and started by sortie over stdio when the mission starts) and a skill
# it loads when it needs it, which brings one more of the server's tools.

variable "openai_api_key" {
  secret      = true
  description = "OpenAI API key (or set OPENAI_API_KEY)"
}

model "openai" {
  provider = "openai"
  api_key  = vars.openai_api_key
}

mcp "shop" {
  command = "node"
  args    = ["server/bookshop.mjs"] # relative to this folder: the server runs from here
}

skill "gift_wrap" {
  description  = "Load when a book is to be gift-wrapped: how to write its card, and the wrap_gift tool"
  instructions = load("skills/gift-wrap.md")
  tools        = [mcp.shop.wrap_gift]
}

agent "bookseller" {
  model       = models.openai.gpt_4o_mini
  personality = "You are a bookseller. You recommend only books the shop has in stock, and say why in one sentence."
  tools       = [mcp.shop.search_books, mcp.shop.book_details]
  skills      = [skills.gift_wrap]
}

mission "recommend" {
  directive = "Recommend a book from the shop's stock"

  commander {
    model = models.openai.gpt_4o_mini
  }
  agents = [agents.bookseller]

  inputs = {
    reader = string("Who the book is for", { default = "a teenager who loves space" })
  }

  task "recommend" {
    objective = "Recommend one book in stock for ${inputs.reader}, and have it gift-wrapped"
  }
}
