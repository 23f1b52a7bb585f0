package aisearch

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/ratelimit"
	"agora/search"
	"agora/search/answer"
)

// Ask is GET /ai/search/{channelId}[/{searchId}]?q=: it checks the
// question and the asker's rights, retrieves the posts, streams the answer
// to w as newline-delimited JSON and, once the answer is whole, stores the
// turn. searchID is nil for a first question (a new search) and names the
// asker's own search in that channel for a follow-up. It returns the
// search's id.
//
// Ask is Prepare then Stream in one call; a transport that must answer an
// error before it starts streaming calls them apart.
func (s *Service) Ask(ctx context.Context, v auth.Caller, channelID uuid.UUID, searchID *uuid.UUID, question string, w io.Writer) (uuid.UUID, error) {
	a, err := s.Prepare(ctx, v, channelID, searchID, question)
	if err != nil {
		return uuid.Nil, err
	}
	return a.SearchID, a.Stream(ctx, w)
}

// Asking is a question that passed every check, with its posts retrieved,
// ready to be answered.
type Asking struct {
	// SearchID is the search the answer belongs to: new for a first
	// question, the follow-up's otherwise.
	SearchID uuid.UUID

	s        *Service
	v        auth.Caller
	ch       channel
	followUp bool
	question string
	history  []answer.Turn
	retrieved
	authors map[string]string
}

// Prepare does everything Ask does before the first byte of the answer:
//   - the question, trimmed, must be 1 to MaxQuestion characters (400
//     validationFailed);
//   - the channel must exist (404) and the asker must read it: a forum
//     reader for its main channel, a forum admin for its admin channel
//     (403);
//   - an account asks at most its searches a minute (429 tooManyRequests
//     with Retry-After);
//   - a follow-up's search must be the asker's own in that channel (404),
//     and its earlier turns become the answerer's history, oldest first;
//   - the posts are retrieved (see retrieve), a follow-up's with its
//     conversation.
func (s *Service) Prepare(ctx context.Context, v auth.Caller, channelID uuid.UUID, searchID *uuid.UUID, question string) (*Asking, error) {
	q, problem := CheckQuestion(question)
	if problem != "" {
		return nil, apperr.Invalid(map[string]string{"q": problem})
	}
	ch, err := readChannel(ctx, s.db, v, channelID)
	if err != nil {
		return nil, err
	}
	// Counted once the asker may ask here, before the costly part.
	if ok, retry := s.limit.Allow(v.UserID.String()); !ok {
		e := *ErrTooMany
		e.RetryAfter = ratelimit.Seconds(retry)
		return nil, &e
	}
	a := &Asking{s: s, v: v, ch: ch, question: q}
	if searchID == nil {
		a.SearchID = newID()
	} else {
		a.SearchID, a.followUp = *searchID, true
		if a.history, err = s.history(ctx, v, channelID, *searchID); err != nil {
			return nil, err
		}
	}
	a.retrieved, err = s.retrieve(ctx, v.UserID.String(), ch.SeriesID.String(), ch.readable(), q, a.history)
	if err != nil {
		return nil, err
	}
	if a.authors, err = authorNames(ctx, s.db, a.posts); err != nil {
		return nil, err
	}
	return a, nil
}

// history returns the turns of the viewer's search in the channel, oldest
// first; another member's search, or one of another channel, is not found.
func (s *Service) history(ctx context.Context, v auth.Caller, channelID, searchID uuid.UUID) ([]answer.Turn, error) {
	turns, err := loadTurns(ctx, s.db, v, channelID, searchID)
	if err != nil {
		return nil, err
	}
	out := make([]answer.Turn, len(turns))
	for i, t := range turns {
		out[i] = answer.Turn{Question: t.Question, Answer: t.Answer, Cited: t.Cited}
	}
	return out, nil
}

// turn is a stored question and its answer.
type turn struct {
	Question, Answer string
	Cited            []string
	// Sources are the cited posts with the numbers the answer's markers
	// use, as the asker saw them.
	Sources   []answer.Source
	CreatedOn time.Time
}

// loadTurns reads the turns of the viewer's own search in the channel,
// oldest first; a search that is not the viewer's in that channel is
// ErrNotFound.
func loadTurns(ctx context.Context, q db.Querier, v auth.Caller, channelID, searchID uuid.UUID) ([]turn, error) {
	var found bool
	s, t := table.AiSearches, table.AiSearchTurns
	if err := db.QueryRow(ctx, q, SELECT(EXISTS(SELECT(s.ID).FROM(s).
		WHERE(s.ID.EQ(UUID(searchID)).AND(s.UserID.EQ(UUID(v.UserID))).AND(s.ChannelID.EQ(UUID(channelID))))))).Scan(&found); err != nil {
		return nil, fmt.Errorf("aisearch: search: %w", err)
	}
	if !found {
		return nil, apperr.ErrNotFound
	}
	rows, err := db.Query(ctx, q, SELECT(t.Question, t.Answer, t.Cited, t.Sources, t.CreatedOn).FROM(t).
		WHERE(t.SearchID.EQ(UUID(searchID))).ORDER_BY(t.CreatedOn, t.ID))
	if err != nil {
		return nil, fmt.Errorf("aisearch: turns: %w", err)
	}
	defer rows.Close()
	var out []turn
	for rows.Next() {
		var t turn
		var sources []byte
		if err := rows.Scan(&t.Question, &t.Answer, &t.Cited, &sources, &t.CreatedOn); err != nil {
			return nil, fmt.Errorf("aisearch: turns: %w", err)
		}
		if err := json.Unmarshal(sources, &t.Sources); err != nil {
			return nil, fmt.Errorf("aisearch: turn sources: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// Stream answers the question into w (answer.Run: the threads event, the
// completions, the answer event), storing the turn, and the search with
// it for a first question, and an answer that cites no post as a content
// gap of the forum, before the answer event. A cancelled ctx (the client went away) stops the
// answerer, and with it a model's upstream request; an answer that did not
// finish is not stored. w is flushed after every line when it can be.
func (a *Asking) Stream(ctx context.Context, w io.Writer) error {
	req := answer.Request{SearchID: a.SearchID.String(), Question: a.question, Posts: a.posts, History: a.history, Frequencies: a.freq, Authors: a.authors, Agreed: a.agreed, Hybrid: a.hybrid, Meaning: a.s.embed}
	_, err := answer.Run(ctx, a.s.answerer, req, answer.NewStream(w, a.SearchID.String()), func(res answer.Result) error {
		// The answer is whole: keep it before the client reads it as done,
		// and even if the client leaves now, so that a follow-up finds it.
		storeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		return a.store(storeCtx, res)
	})
	return err
}

func (a *Asking) store(ctx context.Context, res answer.Result) error {
	cited := make([]string, len(res.Citations))
	copy(cited, res.Citations)
	sources, err := json.Marshal(res.Sources)
	if err != nil {
		return fmt.Errorf("aisearch: sources: %w", err)
	}
	now := a.s.timestamp()
	s, t := table.AiSearches, table.AiSearchTurns
	return db.InTx(ctx, a.s.db, func(tx pgx.Tx) error {
		if !a.followUp {
			if _, err := db.Exec(ctx, tx, s.INSERT(s.AllColumns).MODEL(model.AiSearches{
				ID: a.SearchID, ChannelID: a.ch.ID, SeriesID: a.ch.SeriesID, UserID: a.v.UserID, CreatedOn: now})); err != nil {
				return fmt.Errorf("aisearch: store search: %w", err)
			}
		}
		_, err := db.Exec(ctx, tx, t.INSERT(t.AllColumns).MODEL(model.AiSearchTurns{
			ID: newID(), SearchID: a.SearchID, Question: a.question, Answer: res.Answer, Cited: cited, Sources: string(sources), Answerer: a.s.name, CreatedOn: now}))
		if err != nil {
			return fmt.Errorf("aisearch: store turn: %w", err)
		}
		if Unanswered(res) {
			return recordGap(ctx, tx, a.ch.SeriesID, a.question, now)
		}
		return nil
	})
}

// authorNames are the display names of the posts' authors, by user id, read
// now rather than indexed with the posts, so that a renamed member is named
// as they are called today. An anonymous post carries no author id and so
// gets no name here.
func authorNames(ctx context.Context, q db.Querier, posts []search.Post) (map[string]string, error) {
	var ids []uuid.UUID
	seen := map[uuid.UUID]bool{}
	for _, p := range posts {
		id, err := uuid.Parse(p.AuthorID)
		if err != nil || seen[id] {
			continue // anonymous (no id)
		}
		seen[id] = true
		ids = append(ids, id)
	}
	out := map[string]string{}
	if len(ids) == 0 {
		return out, nil
	}
	u := table.Users
	rows, err := db.Query(ctx, q, SELECT(u.ID, u.FirstName, u.LastName).FROM(u).WHERE(db.Any(u.ID, ids)))
	if err != nil {
		return nil, fmt.Errorf("aisearch: author names: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id uuid.UUID
		var first, last string
		if err := rows.Scan(&id, &first, &last); err != nil {
			return nil, fmt.Errorf("aisearch: author names: %w", err)
		}
		if name := strings.TrimSpace(first + " " + last); name != "" {
			out[id.String()] = name
		}
	}
	return out, rows.Err()
}
