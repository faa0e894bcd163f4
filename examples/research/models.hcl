variable "anthropic_api_key" {
  secret = true
}

variable "openai_api_key" {
  secret = true
}

model "anthropic" {
  provider = "anthropic"
  api_key  = vars.anthropic_api_key
}

model "openai" {
  provider = "openai"
  api_key  = vars.openai_api_key
}
