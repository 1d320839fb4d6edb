// Package agent is the model side of e2e: a Chat Completions client for any
// OpenAI-compatible server (OpenAI, Ollama, vLLM, llama.cpp), the tools the
// model is offered, their prompts, and the LLM locator. It is the only
// package that imports openai-go; callers speak in its own Message, Tool
// and Request types.
//
// # Calls
//
// Client.Complete sends one request and owns the retry policy (openai-go's
// own retries are off): 429, 5xx, per-request timeouts, transport errors and
// unparseable answers are retried with exponential backoff and jitter, or
// after the server's Retry-After, up to Config.MaxRetries times. A spent
// budget is one *CallError whose message says what happened ("model
// rate-limited (429) after 3 attempts over 7.2s") and which matches one of
// the sentinels in errors.go. Every call, failed or not, is recorded through
// a session.CallRecorder with its purpose, tokens, latency, attempts,
// outcome and cost; message contents never are.
//
// # Locating
//
// Locator resolves a description the local locator was not sure of. It
// forces one call of choose_element, whose arguments come in the order
// reasoning, ref, attributes, related: the model states what it relied on
// after it has chosen (seed 001). Those become the element cache's intent
// conditions, kept only where they hold for the chosen element. Page text
// is data: the prompt says so, and the description goes out with its
// {{ secret.NAME }} placeholders unresolved.
//
// Tool descriptions and schemas live in tools/, prompts in prompts/, both
// embedded. Package agenttest is the scripted model server the tests use.
package agent
