package embedding_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"agora/search"
	"agora/search/embedding"
	"agora/search/wordvec"
)

// vectors are three hand-made word vectors.
func vectors(t *testing.T) *wordvec.Vectors {
	t.Helper()
	var buf bytes.Buffer
	err := wordvec.Write(&buf, 3, []string{"recipe", "server", "oven"},
		[][]float32{{1, 0.1, 0}, {0.1, 1, 0}, {0.9, 0, 0.1}})
	if err != nil {
		t.Fatal(err)
	}
	v, err := wordvec.Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// serve serves e's embeddings API on loopback under /v1, counting its
// requests, and returns its base URL.
func serve(t *testing.T, e search.Embedder, requests *atomic.Int32) string {
	t.Helper()
	mux := http.NewServeMux()
	h := embedding.Handler(e)
	mux.Handle("/v1"+embedding.Path, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		h.ServeHTTP(w, r)
	}))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

func TestClientAgainstHandler(t *testing.T) {
	v := vectors(t)
	var requests atomic.Int32
	c, err := embedding.New(embedding.Config{BaseURL: serve(t, v, &requests) + "/", Model: wordvec.Model}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// More texts than a batch: the client splits them, in order.
	texts := make([]string, embedding.BatchSize+3)
	for i := range texts {
		texts[i] = []string{"recipe\nfor the oven", "server", "nothing known", "oven"}[i%4]
	}
	got, err := c.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := v.Embed(context.Background(), texts)
	if len(got) != len(want) {
		t.Fatalf("%d vectors for %d texts", len(got), len(texts))
	}
	for i := range want {
		if fmt.Sprint(got[i]) != fmt.Sprint(want[i]) {
			t.Fatalf("text %d (%q): %v over HTTP, %v directly", i, texts[i], got[i], want[i])
		}
	}
	if n := requests.Load(); n != 2 {
		t.Errorf("%d requests, want 2 batches", n)
	}
	if texts[0] != "recipe\nfor the oven" {
		t.Errorf("the caller's text was changed: %q", texts[0])
	}
	if got, err := c.Embed(context.Background(), nil); err != nil || len(got) != 0 {
		t.Errorf("no texts: %v, %v", got, err)
	}
}

type failing struct{}

func (failing) Embed(context.Context, []string) ([][]float32, error) {
	return nil, errors.New("the model is not loaded")
}

func TestClientReportsServerError(t *testing.T) {
	var requests atomic.Int32
	c, err := embedding.New(embedding.Config{BaseURL: serve(t, failing{}, &requests), Model: "m", Token: "sk-test"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Embed(context.Background(), []string{"a text"})
	if err == nil || !strings.Contains(err.Error(), "500") || !strings.Contains(err.Error(), "the model is not loaded") {
		t.Errorf("err %v, want the server's status and message", err)
	}
}

// TestClientRefusesBadVectors: a server that drops a text's vector, or
// answers one of another dimension, would pair texts with the wrong
// vectors or break the comparison of vectors.
func TestClientRefusesBadVectors(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/embeddings", func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Input []string }
		_ = json.NewDecoder(r.Body).Decode(&req)
		second := ""
		if len(req.Input) == 2 {
			second = `,{"object":"embedding","index":1,"embedding":[1]}`
		}
		io.WriteString(w, `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[1,0]}`+second+`],"model":"m"}`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c, err := embedding.New(embedding.Config{BaseURL: srv.URL + "/v1", Model: "m"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Embed(context.Background(), []string{"a", "b", "c"}); err == nil || !strings.Contains(err.Error(), "unexpected length") {
		t.Errorf("a vector missing: err %v", err)
	}
	if _, err := c.Embed(context.Background(), []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "dimensions") {
		t.Errorf("dimensions differ: err %v", err)
	}
}

func TestHandler(t *testing.T) {
	var requests atomic.Int32
	base := serve(t, vectors(t), &requests)
	for _, c := range []struct {
		name, method, body string
		status             int
		param              string // of an error
		count              int    // of vectors
	}{
		{"one text", "POST", `{"model": "m", "input": "recipe oven"}`, 200, "", 1},
		{"texts", "POST", `{"model": "m", "input": ["recipe", "server", ""], "encoding_format": "float"}`, 200, "", 3},
		{"no model", "POST", `{"input": "recipe"}`, 400, "model", 0},
		{"no input", "POST", `{"model": "m"}`, 400, "input", 0},
		{"empty list", "POST", `{"model": "m", "input": []}`, 400, "input", 0},
		{"token ids", "POST", `{"model": "m", "input": [[1, 2, 3]]}`, 400, "input", 0},
		{"number", "POST", `{"model": "m", "input": 3}`, 400, "input", 0},
		{"too many", "POST", `{"model": "m", "input": [` + strings.Repeat(`"a",`, embedding.MaxInputs) + `"a"]}`, 400, "input", 0},
		{"base64", "POST", `{"model": "m", "input": "a", "encoding_format": "base64"}`, 400, "encoding_format", 0},
		{"not json", "POST", `recipe`, 400, "", 0},
		{"get", "GET", ``, 405, "", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(c.method, base+embedding.Path, strings.NewReader(c.body))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, c.status)
			}
			var body struct {
				Object string `json:"object"`
				Model  string `json:"model"`
				Data   []struct {
					Object    string    `json:"object"`
					Index     int       `json:"index"`
					Embedding []float32 `json:"embedding"`
				} `json:"data"`
				Usage struct {
					PromptTokens int `json:"prompt_tokens"`
					TotalTokens  int `json:"total_tokens"`
				} `json:"usage"`
				Error *struct {
					Message string  `json:"message"`
					Type    string  `json:"type"`
					Param   *string `json:"param"`
				} `json:"error"`
			}
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatal(err)
			}
			if c.status != 200 {
				if body.Error == nil || body.Error.Message == "" || body.Error.Type != "invalid_request_error" {
					t.Fatalf("error body %+v", body.Error)
				}
				if c.param != "" && (body.Error.Param == nil || *body.Error.Param != c.param) {
					t.Errorf("param %v, want %s", body.Error.Param, c.param)
				}
				return
			}
			if body.Object != "list" || body.Model != "m" || len(body.Data) != c.count {
				t.Fatalf("body %+v", body)
			}
			for i, d := range body.Data {
				if d.Object != "embedding" || d.Index != i || len(d.Embedding) != 3 {
					t.Errorf("datum %d: %+v", i, d)
				}
			}
			if body.Usage.PromptTokens != 2 && c.name == "one text" || body.Usage.TotalTokens != body.Usage.PromptTokens {
				t.Errorf("usage %+v", body.Usage)
			}
		})
	}
}

func TestConfigValidate(t *testing.T) {
	for _, c := range []struct {
		cfg  embedding.Config
		want string
	}{
		{embedding.Config{BaseURL: "https://api.openai.com/v1", Model: "text-embedding-3-small"}, ""},
		{embedding.Config{BaseURL: "127.0.0.1:11434", Model: "m"}, "not an http(s) URL"},
		{embedding.Config{BaseURL: "http://127.0.0.1:11434/v1"}, "model name is required"},
	} {
		err := c.cfg.Validate()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: %v, want %q", c.cfg, err, c.want)
		}
		if _, nerr := embedding.New(c.cfg, nil); (nerr == nil) != (c.want == "") {
			t.Errorf("%+v: New %v", c.cfg, nerr)
		}
	}
}
