/** @rein/provider-openai: A rein Provider for the OpenAI Chat Completions wire protocol (DeepSeek, OpenAI and compatible servers). */
export {}
