package aisearch

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"time"

	"github.com/google/uuid"

	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/db"
	"agora/internal/db/dbtype"
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
	posts    []search.Post
	history  []answer.Turn
}

// Prepare does everything Ask does before the first byte of the answer:
//   - the question, trimmed, must be 1 to MaxQuestion characters (400
//     validationFailed);
//   - the channel must exist (404) and the asker must read it: a forum
//     reader for its main channel, a forum admin for its admin channel
//     (403);
//   - a follow-up's search must be the asker's own in that channel (404),
//     and its earlier turns become the answerer's history, oldest first;
//   - the posts are retrieved (see retrieve).
func (s *Service) Prepare(ctx context.Context, v auth.Caller, channelID uuid.UUID, searchID *uuid.UUID, question string) (*Asking, error) {
	q, problem := CheckQuestion(question)
	if problem != "" {
		return nil, apperr.Invalid(map[string]string{"q": problem})
	}
	ch, err := readChannel(ctx, s.db, v, channelID)
	if err != nil {
		return nil, err
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
	a.posts, err = s.retrieve(ctx, v.UserID.String(), ch.SeriesID.String(), ch.readable(), q)
	if err != nil {
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
		out[i] = answer.Turn{Question: t.Question, Answer: t.Answer}
	}
	return out, nil
}

// turn is a stored question and its answer.
type turn struct {
	Question, Answer string
	CreatedOn        time.Time
}

// loadTurns reads the turns of the viewer's own search in the channel,
// oldest first; a search that is not the viewer's in that channel is
// ErrNotFound.
func loadTurns(ctx context.Context, q queryer, v auth.Caller, channelID, searchID uuid.UUID) ([]turn, error) {
	var found bool
	if err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM ai_searches WHERE id = $1 AND user_id = $2 AND channel_id = $3)`,
		searchID, v.UserID, channelID).Scan(&found); err != nil {
		return nil, fmt.Errorf("aisearch: search: %w", err)
	}
	if !found {
		return nil, apperr.ErrNotFound
	}
	rows, err := q.QueryContext(ctx, `SELECT question, answer, created_on FROM ai_search_turns WHERE search_id = $1 ORDER BY created_on, id`, searchID)
	if err != nil {
		return nil, fmt.Errorf("aisearch: turns: %w", err)
	}
	defer rows.Close()
	var out []turn
	for rows.Next() {
		var t turn
		if err := rows.Scan(&t.Question, &t.Answer, &t.CreatedOn); err != nil {
			return nil, fmt.Errorf("aisearch: turns: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// Stream answers the question into w (answer.Run: the threads event, the
// completions, the answer event), storing the turn, and the search with
// it for a first question, before the answer event. A cancelled ctx (the client went away) stops the
// answerer, and with it a model's upstream request; an answer that did not
// finish is not stored. w is flushed after every line when it can be.
func (a *Asking) Stream(ctx context.Context, w io.Writer) error {
	req := answer.Request{SearchID: a.SearchID.String(), Question: a.question, Posts: a.posts, History: a.history}
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
	cited := make(dbtype.TextArray, len(res.Citations))
	copy(cited, res.Citations)
	now := a.s.timestamp()
	return db.InTx(ctx, a.s.db, func(tx *sql.Tx) error {
		if !a.followUp {
			if _, err := tx.ExecContext(ctx, `INSERT INTO ai_searches (id, channel_id, series_id, user_id, created_on) VALUES ($1, $2, $3, $4, $5)`,
				a.SearchID, a.ch.ID, a.ch.SeriesID, a.v.UserID, now); err != nil {
				return fmt.Errorf("aisearch: store search: %w", err)
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO ai_search_turns (id, search_id, question, answer, cited, answerer, created_on)
			VALUES ($1, $2, $3, $4, $5::text[]::uuid[], $6, $7)`,
			newID(), a.SearchID, a.question, res.Answer, cited, a.s.name, now)
		if err != nil {
			return fmt.Errorf("aisearch: store turn: %w", err)
		}
		return nil
	})
}
