package httpapi

import (
	"bufio"
	"context"
	"errors"
	"net"
	"sync"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/google/uuid"

	"agora/command/aisearch"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	qfeed "agora/query/feed"
)

// Limits of one AI search stream.
const (
	// maxAnswerTime bounds one answer, a slow model's included.
	maxAnswerTime = 5 * time.Minute
	// streamWriteTimeout bounds each line's write to the client: the
	// server's WriteTimeout would otherwise bound the whole stream, and a
	// model on a CPU may take longer than that to finish.
	streamWriteTimeout = time.Minute
)

// aiSearchRoutes serve the forums' AI search (spec 001 §4 "AI search
// flow", §7): the streamed answer and its follow-ups, and sharing a
// conversation to the forum.
func (s *server) aiSearchRoutes(api fiber.Router) {
	h := &aiSearchHandlers{cmd: s.Commands.AISearch, q: s.Queries.Feed, s: s}
	authed := only(auth.GroupAuthenticated)
	api.Get("/ai/search/:channelId", authed, h.ask)
	api.Get("/ai/search/:channelId/:searchId", authed, h.ask)
	api.Post("/ai-response/share-chat", authed, h.shareChat)
}

type aiSearchHandlers struct {
	cmd *aisearch.Service
	q   *qfeed.Queries
	s   *server
}

// ask serves both search routes: with searchId it is a follow-up. Every
// check runs before the stream starts, so that a refusal is the JSON error
// body; then the answer streams as application/x-ndjson, a line flushed per
// event.
func (h *aiSearchHandlers) ask(c fiber.Ctx) error {
	bad := apperr.Fields{}
	channelID, err := uuid.Parse(c.Params("channelId"))
	if err != nil {
		bad.Add("channelId", "must be a UUID")
	}
	var searchID *uuid.UUID
	if raw := c.Params("searchId"); raw != "" {
		id, err := uuid.Parse(raw)
		if err != nil {
			bad.Add("searchId", "must be a UUID")
		}
		searchID = &id
	}
	question, problem := aisearch.CheckQuestion(c.Query("q"))
	if problem != "" {
		bad.Add("q", problem)
	}
	if err := bad.Err(); err != nil {
		return err
	}

	// The answer outlives the handler (fasthttp streams the body after it
	// returns, and Fiber reuses c), so its context is its own: cancelled when
	// the client goes away, when the server shuts down, or after
	// maxAnswerTime.
	ctx, cancel := context.WithTimeout(context.Background(), maxAnswerTime)
	asking, err := h.cmd.Prepare(ctx, caller(c), channelID, searchID, question)
	if err != nil {
		cancel()
		return err
	}
	c.Set(fiber.HeaderContentType, "application/x-ndjson")
	if c.Method() == fiber.MethodHead {
		// Fiber answers HEAD on every GET route: the headers, no answer.
		cancel()
		return nil
	}
	rc := c.RequestCtx()
	conn, shutdown, reqID := rc.Conn(), rc.Done(), requestID(c)
	c.Set(fiber.HeaderCacheControl, "no-store")
	// nginx (deploy/) would otherwise buffer the stream.
	c.Set("X-Accel-Buffering", "no")
	// The connection ends with the stream: watchClient reads from it to
	// notice a client that leaves, so no further request may be read there.
	c.Response().Header.SetConnectionClose()
	return c.SendStreamWriter(func(bw *bufio.Writer) {
		defer cancel()
		watchClient(ctx, conn, shutdown, cancel)
		w := &clientStream{bw: bw, conn: conn, cancel: cancel}
		if err := asking.Stream(ctx, w); err != nil && ctx.Err() == nil && !w.failed() {
			h.s.Log.Error("AI search failed", "requestId", reqID, "searchId", asking.SearchID, "err", err)
		}
	})
}

// watchClient cancels the answer as soon as the client goes away, even
// while nothing is being written (a model still thinking): it reads from
// the connection, where the request has been read whole and a client sends
// nothing more, until the read fails — the client closed or reset it, or
// the server closed it after the response. It also cancels on server
// shutdown.
func watchClient(ctx context.Context, conn net.Conn, shutdown <-chan struct{}, cancel context.CancelFunc) {
	go func() {
		select {
		case <-shutdown:
			cancel()
		case <-ctx.Done():
		}
	}()
	if conn == nil {
		return
	}
	go func() {
		// The server's read deadline was for the request.
		_ = conn.SetReadDeadline(time.Time{})
		buf := make([]byte, 64)
		for {
			_, err := conn.Read(buf)
			if err == nil {
				continue // bytes after the request: not ours to read, and the connection closes after the stream
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() && ctx.Err() == nil {
				_ = conn.SetReadDeadline(time.Time{})
				continue
			}
			cancel()
			return
		}
	}()
}

// clientStream is the answer's writer: fasthttp's stream buffer, which
// reports an error once the client is gone. A failed write or flush cancels
// the answer, and each flush gives the connection streamWriteTimeout more
// to send.
type clientStream struct {
	bw     *bufio.Writer
	conn   net.Conn
	cancel context.CancelFunc
	mu     sync.Mutex
	err    error
}

func (s *clientStream) Write(p []byte) (int, error) {
	n, err := s.bw.Write(p)
	s.fail(err)
	return n, err
}

// Flush sends the buffered line to the client.
func (s *clientStream) Flush() error {
	if s.conn != nil {
		_ = s.conn.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
	}
	err := s.bw.Flush()
	s.fail(err)
	return err
}

func (s *clientStream) fail(err error) {
	if err == nil {
		return
	}
	s.mu.Lock()
	s.err = err
	s.mu.Unlock()
	s.cancel()
}

// failed reports whether the client went away under a write.
func (s *clientStream) failed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err != nil
}

func (h *aiSearchHandlers) shareChat(c fiber.Ctx) error {
	var in struct {
		ChannelID *string `json:"channelId"`
		SearchID  *string `json:"searchId"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	var missing []string
	if in.ChannelID == nil {
		missing = append(missing, "channelId")
	}
	if in.SearchID == nil {
		missing = append(missing, "searchId")
	}
	if len(missing) > 0 {
		return apperr.MissingParameters(missing...)
	}
	bad := apperr.Fields{}
	channelID, err := uuid.Parse(*in.ChannelID)
	if err != nil {
		bad.Add("channelId", "must be a UUID")
	}
	searchID, err := uuid.Parse(*in.SearchID)
	if err != nil {
		bad.Add("searchId", "must be a UUID")
	}
	if err := bad.Err(); err != nil {
		return err
	}
	v := caller(c)
	id, err := h.cmd.ShareChat(c.Context(), aisearch.ShareChat{Viewer: v, ChannelID: channelID, SearchID: searchID})
	if err != nil {
		return err
	}
	t, err := h.q.Thread(c.Context(), v, id)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(t)
}
