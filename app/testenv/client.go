package testenv

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"agora/httpapi/openapi"
)

// Client calls the API as a browser would and checks every response
// against the OpenAPI contract.
type Client struct {
	t     testing.TB
	env   *Env
	Token string
	// Header is sent with every request (X-Forwarded-For, to stand in for a
	// proxy).
	Header http.Header
	http   *http.Client
}

// Client returns an anonymous client. It does not follow redirects: a
// test sees the redirect the API answers, checked against the contract.
func (e *Env) Client(t testing.TB) *Client {
	return &Client{t: t, env: e, http: &http.Client{Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// Response is a received response.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into v, failing the test on error.
func (r *Response) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// Code is the error code of an error body, or "".
func (r *Response) Code() string {
	var b struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(r.Body, &b)
	return b.Code
}

// Do sends a request. body is sent as JSON unless it is a string or []byte,
// which are sent as they are (to test malformed bodies).
func (c *Client) Do(method, path string, body any) *Response {
	c.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	contentType := ""
	if rd != nil {
		contentType = "application/json"
	}
	return c.send(method, path, contentType, rd)
}

// Upload posts a multipart/form-data body of one file, in the part field,
// as a browser's file input sends it.
func (c *Client) Upload(path, field, filename string, data []byte) *Response {
	c.t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	part, err := w.CreateFormFile(field, filename)
	if err == nil {
		_, err = part.Write(data)
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		c.t.Fatal(err)
	}
	return c.send("POST", path, w.FormDataContentType(), &b)
}

func (c *Client) send(method, path, contentType string, rd io.Reader) *Response {
	c.t.Helper()
	req, err := http.NewRequest(method, c.env.URL+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	for k, v := range c.Header {
		req.Header[k] = v
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	res, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	r := &Response{Status: res.StatusCode, Header: res.Header, Body: b}
	if err := openapi.ValidateResponse(method, path, r.Status, res.Header.Get("Content-Type"), b); err != nil {
		c.t.Errorf("%s %s → %d breaks the OpenAPI contract: %v\nbody: %s", method, path, r.Status, err, b)
	}
	return r
}

// SignIn signs in as email with the demo password and keeps the token.
func (c *Client) SignIn(email string) *Client {
	c.t.Helper()
	r := c.Do("POST", "/api/sessions", map[string]string{"email": email, "password": Password})
	if r.Status != 200 {
		c.t.Fatalf("sign in %s: %d %s", email, r.Status, r.Body)
	}
	var s struct {
		AccessToken string `json:"accessToken"`
	}
	r.JSON(c.t, &s)
	c.Token = s.AccessToken
	return c
}

// As returns a client signed in as email.
func (e *Env) As(t testing.TB, email string) *Client {
	return e.Client(t).SignIn(email)
}

// Count counts the rows of a table matching a SQL condition, for checking
// that a refused call wrote nothing.
func (e *Env) Count(t testing.TB, table, where string, args ...any) int {
	t.Helper()
	var n int
	q := "SELECT count(*) FROM " + table
	if where != "" {
		q += " WHERE " + where
	}
	if err := e.DB.Pool.QueryRow(t.Context(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
