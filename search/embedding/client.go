// Package embedding speaks the OpenAI-compatible embeddings API (POST
// /embeddings under a base URL such as https://api.openai.com/v1): Client
// asks a configured provider for vectors over langchaingo, and Handler
// answers the same requests from any search.Embedder, which is how agora
// dev serves its local word vectors to the same client a deployment uses.
package embedding

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/tmc/langchaingo/embeddings"
	"github.com/tmc/langchaingo/llms/openai"

	"agora/search/llm"
)

// Config names an OpenAI-compatible embeddings API. It is parsed once by
// the caller; the client does not read the environment.
type Config struct {
	// BaseURL is the API's base, such as https://api.openai.com/v1 or
	// http://127.0.0.1:11434/v1; /embeddings is appended to it.
	BaseURL string
	// Model is the embedding model's name at that endpoint.
	Model string
	// Token is the API key, sent as a bearer token; local servers usually
	// need none.
	Token string
}

// Validate reports every problem of the config at once.
func (c Config) Validate() error {
	var errs []error
	if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("embedding: base URL %q is not an http(s) URL", c.BaseURL))
	}
	if strings.TrimSpace(c.Model) == "" {
		errs = append(errs, errors.New("embedding: model name is required"))
	}
	return errors.Join(errs...)
}

// BatchSize is the most texts one request carries: OpenAI takes up to
// 2048 inputs a request, and smaller servers time out on long batches
// sooner than on many short ones.
const BatchSize = 256

// Client embeds texts with the configured provider, through langchaingo's
// OpenAI client, in batches of BatchSize. It implements search.Embedder.
type Client struct {
	emb *embeddings.EmbedderImpl
}

// New returns a client for the config. The HTTP client may be nil
// (http.DefaultClient).
func New(cfg Config, client *http.Client) (*Client, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c, err := llm.OpenAI(cfg.BaseURL, cfg.Token, client, openai.WithEmbeddingModel(cfg.Model))
	if err != nil {
		return nil, fmt.Errorf("embedding: client: %w", err)
	}
	// Line breaks stay: langchaingo would replace them in the caller's
	// slice itself, and current models read them as any space.
	emb, err := embeddings.NewEmbedder(c, embeddings.WithBatchSize(BatchSize), embeddings.WithStripNewLines(false))
	if err != nil {
		return nil, fmt.Errorf("embedding: client: %w", err)
	}
	return &Client{emb: emb}, nil
}

// Embed implements search.Embedder: one vector per text, in order.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	vecs, err := c.emb.EmbedDocuments(ctx, texts)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("embedding: %w", ctx.Err())
		}
		return nil, fmt.Errorf("embedding: %w", err)
	}
	// langchaingo checks that each text has a vector; one of another
	// dimension would not compare with the rest.
	for i, v := range vecs {
		if len(v) == 0 || len(v) != len(vecs[0]) {
			return nil, fmt.Errorf("embedding: vector %d has %d dimensions, the first %d", i, len(v), len(vecs[0]))
		}
	}
	return vecs, nil
}
