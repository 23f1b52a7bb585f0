package embedding

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"agora/search"
	"agora/search/words"
)

// Path is where Handler is served under the API's base URL: a base URL of
// http://host/v1 makes its endpoint http://host/v1/embeddings.
const Path = "/embeddings"

// MaxInputs is the most texts one request may carry, OpenAI's own limit.
const MaxInputs = 2048

// maxBody bounds a request's body: 2048 texts of 8 KB.
const maxBody = 16 << 20

// Handler answers POST requests of the OpenAI embeddings API, {"model":
// "...", "input": "text" or ["text", ...]}, with the vectors of e:
// {"object": "list", "data": [{"object": "embedding", "index": i,
// "embedding": [...]}], "model": "...", "usage": {...}}. The model named is
// echoed, whatever it is: the handler serves one model. Usage counts words
// (as the AI search reads them) for tokens. Bad input gets a 400 with an
// OpenAI error body, {"error": {"message", "type", "param", "code"}}.
func Handler(e search.Embedder) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			writeError(w, http.StatusMethodNotAllowed, "invalid_request_error", "", "use POST")
			return
		}
		var req struct {
			Model          string          `json:"model"`
			Input          json.RawMessage `json:"input"`
			EncodingFormat string          `json:"encoding_format"`
		}
		dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
		if err := dec.Decode(&req); err != nil {
			writeError(w, http.StatusBadRequest, "invalid_request_error", "", "the body is not a JSON object: "+err.Error())
			return
		}
		texts, err := inputs(req.Input)
		switch {
		case req.Model == "":
			writeError(w, http.StatusBadRequest, "invalid_request_error", "model", "model is required")
			return
		case err != nil:
			writeError(w, http.StatusBadRequest, "invalid_request_error", "input", err.Error())
			return
		case req.EncodingFormat != "" && req.EncodingFormat != "float":
			writeError(w, http.StatusBadRequest, "invalid_request_error", "encoding_format", "only the float encoding is served")
			return
		}
		vecs, err := e.Embed(r.Context(), texts)
		if err == nil && len(vecs) != len(texts) {
			err = fmt.Errorf("%d vectors for %d texts", len(vecs), len(texts))
		}
		if err != nil {
			writeError(w, http.StatusInternalServerError, "server_error", "", "embedding failed: "+err.Error())
			return
		}
		type datum struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		type usage struct {
			PromptTokens int `json:"prompt_tokens"`
			TotalTokens  int `json:"total_tokens"`
		}
		resp := struct {
			Object string  `json:"object"`
			Data   []datum `json:"data"`
			Model  string  `json:"model"`
			Usage  usage   `json:"usage"`
		}{Object: "list", Data: make([]datum, len(vecs)), Model: req.Model}
		n := 0
		for i, v := range vecs {
			resp.Data[i] = datum{Object: "embedding", Index: i, Embedding: v}
			n += len(words.Split(texts[i]))
		}
		resp.Usage = usage{PromptTokens: n, TotalTokens: n}
		writeJSON(w, http.StatusOK, resp)
	})
}

// inputs reads the input field: one text or a list of 1 to MaxInputs
// texts. OpenAI's lists of token ids are refused: the handler reads words.
func inputs(raw json.RawMessage) ([]string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, errors.New("input is required")
	}
	var one string
	if err := json.Unmarshal(raw, &one); err == nil {
		return []string{one}, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, errors.New("input must be a string or an array of strings")
	}
	if len(list) == 0 || len(list) > MaxInputs {
		return nil, fmt.Errorf("input must hold 1 to %d strings, not %d", MaxInputs, len(list))
	}
	return list, nil
}

func writeError(w http.ResponseWriter, status int, kind, param, msg string) {
	body := map[string]any{"message": msg, "type": kind, "param": nil, "code": nil}
	if param != "" {
		body["param"] = param
	}
	writeJSON(w, status, map[string]any{"error": body})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
