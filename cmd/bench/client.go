package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/gofiber/fiber/v3"

	"agora/app"
)

// client is a keep-alive HTTP client of one API server.
type client struct {
	base string
	http *http.Client
}

func newClient(base string) *client { return newPooledClient(base, 64) }

// newPooledClient is a client that keeps up to idle connections open.
func newPooledClient(base string, idle int) *client {
	return &client{base: base, http: &http.Client{
		Timeout: 30 * time.Second,
		Transport: &http.Transport{
			MaxIdleConns:        idle,
			MaxIdleConnsPerHost: idle,
			IdleConnTimeout:     time.Minute,
			DisableCompression:  true,
		},
	}}
}

// ready waits for /readyz to answer 200.
func (c *client) ready(ctx context.Context) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		status, err := c.do(ctx, "GET", "/readyz", "", nil, nil)
		if err == nil && status == http.StatusOK {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("API not ready: status %d, %v", status, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// do sends a request and reads the whole answer, decoding it into out when
// it is not nil and the status is 2xx.
func (c *client) do(ctx context.Context, method, path, token string, body []byte, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return 0, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return res.StatusCode, err
	}
	if res.StatusCode/100 != 2 {
		return res.StatusCode, fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, bytes.TrimSpace(b))
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return res.StatusCode, fmt.Errorf("%s %s: decode: %w", method, path, err)
		}
	}
	return res.StatusCode, nil
}

// signIn signs in and returns the access token.
func (c *client) signIn(ctx context.Context, email, password string) (string, error) {
	body, _ := json.Marshal(map[string]string{"email": email, "password": password})
	var s struct {
		AccessToken string `json:"accessToken"`
	}
	if _, err := c.do(ctx, "POST", "/api/sessions", "", body, &s); err != nil {
		return "", err
	}
	if s.AccessToken == "" {
		return "", fmt.Errorf("sign in %s: no access token", email)
	}
	return s.AccessToken, nil
}

// signInAll signs each of emails in and returns their access tokens in
// order. Sign-ins hash a password each: 4 at once, as the server allows.
func signInAll(ctx context.Context, c *client, emails []string, password string) ([]string, error) {
	tokens := make([]string, len(emails))
	var wg sync.WaitGroup
	errc := make(chan error, 4)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(emails); i += 4 {
				t, err := c.signIn(ctx, emails[i], password)
				if err != nil {
					errc <- err
					return
				}
				tokens[i] = t
			}
		}()
	}
	wg.Wait()
	close(errc)
	if err := <-errc; err != nil {
		return nil, err
	}
	return tokens, nil
}

// serveAPI serves srv, a second API node over the same database, on a
// loopback port of its own and waits until it is ready; stop shuts it down
// and says how serving ended.
func serveAPI(ctx context.Context, srv *fiber.App) (c *client, stop func() error, err error) {
	serveCtx, stopServer := context.WithCancel(ctx)
	addrc := make(chan net.Addr, 1)
	served := make(chan error, 1)
	go func() { served <- app.Serve(serveCtx, srv, "127.0.0.1:0", func(a net.Addr) { addrc <- a }) }()
	select {
	case addr := <-addrc:
		c = newClient("http://" + addr.String())
	case err := <-served:
		stopServer()
		return nil, nil, fmt.Errorf("serve: %w", err)
	}
	stop = func() error {
		stopServer()
		if err := <-served; err != nil {
			return fmt.Errorf("serve: %w", err)
		}
		return nil
	}
	if err := c.ready(ctx); err != nil {
		_ = stop()
		return nil, nil, err
	}
	return c, stop, nil
}
