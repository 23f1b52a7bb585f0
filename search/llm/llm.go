// Package llm opens langchaingo's client of an OpenAI-compatible API, the
// one way the AI search's answer model (search/answer) and its embeddings
// client (search/embedding) reach such a server.
package llm

import (
	"net/http"
	"strings"

	"github.com/tmc/langchaingo/llms/openai"
)

// OpenAI returns a client of the API at baseURL with the token, over
// client when not nil, with the options that say what it is for (the
// chat model, or the embedding model).
func OpenAI(baseURL, token string, client *http.Client, opts ...openai.Option) (*openai.LLM, error) {
	if token == "" {
		// langchaingo refuses an empty token (and would then read
		// OPENAI_API_KEY); servers without auth ignore this one.
		token = "no-token"
	}
	opts = append(opts, openai.WithBaseURL(strings.TrimSuffix(baseURL, "/")), openai.WithToken(token))
	if client != nil {
		opts = append(opts, openai.WithHTTPClient(client))
	}
	return openai.New(opts...)
}
