package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// client speaks to the server as one account (or none).
type client struct {
	base  string
	token string
	http  *http.Client
}

// response is a whole answer.
type response struct {
	status int
	header http.Header
	body   []byte
}

// code is the catalogue code of an error body, or "".
func (r response) code() string {
	var b struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(r.body, &b)
	return b.Code
}

// String says what came back, for the report.
func (r response) String() string {
	if r.status == 0 {
		return "no answer"
	}
	if c := r.code(); c != "" {
		return fmt.Sprintf("%d %s", r.status, c)
	}
	return fmt.Sprint(r.status)
}

// ok is a 2xx.
func (r response) ok() bool { return r.status >= 200 && r.status < 300 }

func (r response) decode(v any) error {
	if err := json.Unmarshal(r.body, v); err != nil {
		return fmt.Errorf("decode %.200s: %w", r.body, err)
	}
	return nil
}

// do sends body (JSON-encoded unless it is a string or []byte, sent as it
// is) with the extra headers. A transport error is a response of status 0.
func (c *client) do(ctx context.Context, method, path string, body any, headers map[string]string) response {
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
			panic(err) // the probes' own bodies always encode
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return response{}
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	for k, v := range headers {
		if strings.EqualFold(k, "Host") {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return response{}
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 8<<20))
	return response{status: res.StatusCode, header: res.Header, body: b}
}

// upload posts data as the file part field of a multipart form, named
// name.
func (c *client) upload(ctx context.Context, path, field, name string, data []byte) response {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	part, err := w.CreateFormFile(field, name)
	if err == nil {
		_, err = part.Write(data)
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return response{}
	}
	return c.do(ctx, "POST", path, b.Bytes(), map[string]string{"Content-Type": w.FormDataContentType()})
}

// raw writes a request as it is on a new connection and reads the status
// line, headers and body of the answer: for what net/http will not send
// (unknown methods, oversized headers).
func raw(ctx context.Context, base, request string) response {
	u, err := url.Parse(base)
	if err != nil {
		return response{}
	}
	d := net.Dialer{Timeout: 5 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return response{}
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(conn, request); err != nil {
		return response{}
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return response{}
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return response{status: res.StatusCode, header: res.Header, body: b}
}

func decodeBody(res *http.Response, v any) error {
	b, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return err
	}
	return response{status: res.StatusCode, body: b}.decode(v)
}
