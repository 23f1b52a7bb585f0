package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/fasthttp/websocket"

	"agora/live"
)

// A crowd member's session (see crowd.go): the socket, and the actions the
// web app's pages make.

// dial opens a hub socket as the web app does: a ticket from POST
// /api/hub/tickets, then GET /api/hub?ticket=, so that the session's token
// rides in no URL.
func (w *crowdWorld) dial(ctx context.Context, token string) (*websocket.Conn, error) {
	var t struct {
		Ticket string `json:"ticket"`
	}
	if _, err := w.c.do(ctx, "POST", "/api/hub/tickets", token, nil, &t); err != nil {
		return nil, err
	}
	conn, _, err := websocket.DefaultDialer.DialContext(ctx, "ws"+strings.TrimPrefix(w.c.base, "http")+"/api/hub?ticket="+url.QueryEscape(t.Ticket), nil)
	if err != nil {
		return nil, fmt.Errorf("dial the hub: %w", err)
	}
	return conn, nil
}

// live is a member's session: arriving after arrive, opening the socket
// and the home page, then acting after each think time until ctx ends.
func (w *crowdWorld) live(ctx context.Context, m *crowdMember, arrive time.Duration) {
	if !sleep(ctx, arrive) {
		return
	}
	t0 := time.Now()
	conn, err := w.dial(ctx, m.token)
	w.calls.add("hub", true, time.Since(t0), err)
	if err != nil {
		if ctx.Err() == nil {
			w.dropped.Add(1) // a member without a socket fails the step, whenever they arrived
		}
		return
	}
	go func() {
		<-ctx.Done()
		conn.Close()
	}()
	go w.listen(ctx, conn, m)
	_ = w.home(ctx, m)
	total := 0
	for _, a := range crowdActions {
		total += a.weight
	}
	for {
		if !sleep(ctx, time.Duration(m.rng.ExpFloat64()*float64(crowdThink))) {
			return
		}
		pick := m.rng.IntN(total)
		for _, a := range crowdActions {
			if pick -= a.weight; pick < 0 {
				_ = a.do(w, ctx, m) // a failure is counted by call
				break
			}
		}
	}
}

func sleep(ctx context.Context, d time.Duration) bool {
	select {
	case <-time.After(d):
		return true
	case <-ctx.Done():
		return false
	}
}

// listen reads m's socket until it closes; a closing before ctx ends fails
// the step. Sampled members' sockets time the others' posts they receive;
// the rest only read, cheaply, as a browser tab that is not looking.
func (w *crowdWorld) listen(ctx context.Context, conn *websocket.Conn, m *crowdMember) {
	sampled := m.i%crowdSample == 0
	created := []byte(`"thread.created"`)
	for {
		// An unsampled socket reads its frames into nothing: a member's
		// browser would run elsewhere, and the bench's own reading takes
		// the cores the server is measured on.
		var frame []byte
		var err error
		if sampled {
			_, frame, err = conn.ReadMessage()
		} else {
			var r io.Reader
			if _, r, err = conn.NextReader(); err == nil {
				_, err = io.Copy(io.Discard, r)
			}
		}
		if err != nil {
			if ctx.Err() == nil {
				w.dropped.Add(1)
			}
			return
		}
		if !sampled || !bytes.Contains(frame, created) {
			continue
		}
		now := time.Now()
		for _, b := range live.Messages(frame) {
			var e struct {
				Event string `json:"event"`
				Data  struct {
					Payload struct {
						ID        string    `json:"id"`
						CreatorID string    `json:"creatorId"`
						CreatedOn time.Time `json:"createdOn"`
					} `json:"payload"`
				} `json:"data"`
			}
			if json.Unmarshal(b, &e) == nil && e.Event == "thread.created" && e.Data.Payload.CreatorID != m.id {
				w.got.add(e.Data.Payload.ID, now.Sub(e.Data.Payload.CreatedOn))
			}
		}
	}
}

// call makes one call of an action of kind and counts it.
func (w *crowdWorld) call(ctx context.Context, kind, method, path string, m *crowdMember, body, out any) error {
	var b []byte
	if body != nil {
		b, _ = json.Marshal(body)
	}
	t0 := time.Now()
	_, err := w.c.do(ctx, method, path, m.token, b, out)
	w.calls.add(kind, method != "GET", time.Since(t0), err)
	return err
}

// parallel makes calls at once, as a page's queries start together.
func parallel(calls ...func() error) error {
	errs := make([]error, len(calls))
	var wg sync.WaitGroup
	for i, f := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = f()
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// home opens the home page: the app shell's queries (the member's
// communities, the notifications bell's first page and unread count, the
// private chats, the upcoming Meet Ups, personalization and presence).
func (w *crowdWorld) home(ctx context.Context, m *crowdMember) error {
	get := func(path string) func() error {
		return func() error { return w.call(ctx, "home", "GET", path, m, nil, nil) }
	}
	m.cursor, m.seen = "", nil
	return parallel(get("/api/communities"), get("/api/notifications?page=1&pageSize=20"),
		get("/api/channels/private?page=1&pageSize=100"), get("/api/meetings?page=1&pageSize=50"),
		get("/api/users/"+m.id+"/personalization"), get("/api/users/me/status"))
}

// crowdPage is a feed page, as much of it as a member uses.
type crowdPage struct {
	Results []struct {
		ID        string `json:"id"`
		CreatedOn string `json:"createdOn"`
	} `json:"results"`
}

// openForum opens one of the open forums at random: the forum and its feed's
// first page.
func (w *crowdWorld) openForum(ctx context.Context, m *crowdMember) error {
	m.forum = w.forums[m.rng.IntN(len(w.forums))]
	var page crowdPage
	err := parallel(func() error { return w.call(ctx, "forum", "GET", "/api/series/"+m.forum.id, m, nil, nil) },
		func() error {
			return w.call(ctx, "forum", "GET", "/api/channels/"+m.forum.channel+"/threads?pageSize=10", m, nil, &page)
		})
	m.read(page)
	return err
}

// nextPage reads the feed's next page, or opens a forum when none is open
// (or the feed has ended).
func (w *crowdWorld) nextPage(ctx context.Context, m *crowdMember) error {
	if m.cursor == "" {
		return w.openForum(ctx, m)
	}
	var page crowdPage
	err := w.call(ctx, "next", "GET", "/api/channels/"+m.forum.channel+"/threads?pageSize=10&createdBefore="+url.QueryEscape(m.cursor), m, nil, &page)
	m.read(page)
	return err
}

// read keeps a page's posts and the next page's cursor, its smallest
// createdOn, as the web app does.
func (m *crowdMember) read(page crowdPage) {
	m.seen, m.cursor = m.seen[:0], ""
	for _, p := range page.Results {
		m.seen = append(m.seen, p.ID)
		if m.cursor == "" || p.CreatedOn < m.cursor {
			m.cursor = p.CreatedOn
		}
	}
}

// search runs the community's member search or the forum's mention
// candidates (the @ box), half and half.
func (w *crowdWorld) search(ctx context.Context, m *crowdMember) error {
	q := url.QueryEscape(crowdSearches[m.rng.IntN(len(crowdSearches))])
	if m.forum.id == "" || m.rng.IntN(2) == 0 {
		return w.call(ctx, "search", "GET", "/api/communities/"+w.community+"/member-search?q="+q+"&limit=5", m, nil, nil)
	}
	return w.call(ctx, "search", "GET", "/api/series/"+m.forum.id+"/mention-candidates?q="+q+"&limit=50", m, nil, nil)
}

// askAI asks the AI search of the open forum (or of one at random) a
// question and reads the answer's stream to its end.
func (w *crowdWorld) askAI(ctx context.Context, m *crowdMember) error {
	f := m.forum
	if f.id == "" {
		f = w.forums[m.rng.IntN(len(w.forums))]
	}
	q := fmt.Sprintf(aiAsks[m.rng.IntN(len(aiAsks))], aiTopics[m.rng.IntN(len(aiTopics))])
	t0 := time.Now()
	_, err := aiAskOnce(ctx, w.c, m.token, f.channel, q)
	w.calls.add("ai", false, time.Since(t0), err)
	return err
}

// post writes a post in the open forum (or in one at random).
func (w *crowdWorld) post(ctx context.Context, m *crowdMember) error {
	f := m.forum
	if f.id == "" {
		f = w.forums[m.rng.IntN(len(w.forums))]
	}
	raw := fmt.Sprintf(aiSentences[m.rng.IntN(len(aiSentences))], aiTopics[m.rng.IntN(len(aiTopics))])
	var p struct {
		ID string `json:"id"`
	}
	err := w.call(ctx, "post", "POST", "/api/series/"+f.id+"/threads", m, map[string]any{"channelId": f.channel, "raw": raw}, &p)
	if err == nil {
		w.got.posted(p.ID, m.i)
	}
	return err
}

// comment comments on a post of the page read last, or reads one first.
func (w *crowdWorld) comment(ctx context.Context, m *crowdMember) error {
	if len(m.seen) == 0 {
		return w.nextPage(ctx, m)
	}
	id := m.seen[m.rng.IntN(len(m.seen))]
	raw := fmt.Sprintf(aiSentences[m.rng.IntN(len(aiSentences))], aiTopics[m.rng.IntN(len(aiTopics))])
	return w.call(ctx, "comment", "POST", "/api/threads/"+id+"/replies", m, map[string]any{"raw": raw}, nil)
}

// react sets a reaction on a post of the page read last, or reads one
// first.
func (w *crowdWorld) react(ctx context.Context, m *crowdMember) error {
	if len(m.seen) == 0 {
		return w.nextPage(ctx, m)
	}
	id := m.seen[m.rng.IntN(len(m.seen))]
	body := map[string]any{"reaction": crowdReactions[m.rng.IntN(len(crowdReactions))]}
	return w.call(ctx, "react", "PUT", "/api/threads/"+id+"/reaction", m, body, nil)
}
