// Package aisearch is the write side of a forum's AI search (spec 001 §4
// "AI search flow"): a member asks a question in a channel, the answer is
// written from the forum's posts that member may read and streamed as it is
// made, and the question and answer are kept as a turn of the member's
// search, for follow-ups and for sharing the conversation to the forum as a
// shared-ai-chat post.
//
// Retrieval reads the search store (package search), never Postgres' posts:
// the posts a search may see are exactly those under search.ReadableBy for
// the channels of that forum the asker may read. The answer is made by an
// answer.Answerer from those posts only.
package aisearch

import (
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/ratelimit"
	"agora/internal/rules/plaintext"
	"agora/search"
	"agora/search/answer"
)

// MaxQuestion is the longest question, in characters (the contract's q).
const MaxQuestion = 1000

// RetrieveLimit is how many posts an answer is written from.
const RetrieveLimit = 8

// Service runs the AI search commands.
type Service struct {
	db    *pgxpool.Pool
	posts search.Index[search.Post]
	// embed, when set, makes retrieval hybrid: the posts nearest the
	// question in meaning join the keyword matches (see findSources).
	embed    search.Embedder
	answerer answer.Answerer
	name     string
	now      func() time.Time
	limit    *ratelimit.Limiter
}

// ErrTooMany is an account that asked more AI searches in a minute than
// perAccountPerMinute (429, with Retry-After).
var ErrTooMany = apperr.New(apperr.TooMany, "tooManyRequests", "too many AI searches; try again later")

// New builds the service over the database, the search store's posts and
// the answerer; one account may ask perAccountPerMinute searches a minute.
// embed is the embedder the search projection indexes posts with, or nil
// when none is configured (keyword retrieval alone).
func New(d *db.DB, store search.Store, a answer.Answerer, embed search.Embedder, perAccountPerMinute int) (*Service, error) {
	if d == nil || d.Pool == nil || store == nil || a == nil {
		return nil, errors.New("aisearch.New: nil dependency")
	}
	if perAccountPerMinute < 1 {
		return nil, errors.New("aisearch.New: the searches an account may ask a minute must be 1 or more")
	}
	return &Service{db: d.Pool, posts: store.Posts(), embed: embed, answerer: a, name: answererName(a), now: time.Now,
		limit: ratelimit.New(perAccountPerMinute, time.Minute)}, nil
}

// CheckQuestion trims a question and says what is wrong with it, if
// anything: blank, or longer than MaxQuestion characters.
func CheckQuestion(q string) (trimmed, problem string) {
	q = plaintext.Trim(q)
	switch {
	case q == "":
		return q, "must not be blank"
	case utf8.RuneCountInString(q) > MaxQuestion:
		return q, fmt.Sprintf("must be at most %d characters", MaxQuestion)
	}
	return q, ""
}

// answererName is what a stored turn says wrote its answer: the model's
// name ("openai:llama3.1"), or "extractive".
func answererName(a answer.Answerer) string {
	if n, ok := a.(interface{ Name() string }); ok {
		return n.Name()
	}
	switch a.(type) {
	case answer.Extractive, *answer.Extractive:
		return "extractive"
	}
	return fmt.Sprintf("%T", a)
}

// timestamp is now to the millisecond, the precision of the wire.
func (s *Service) timestamp() time.Time { return s.now().UTC().Truncate(time.Millisecond) }

func newID() uuid.UUID {
	id, err := uuid.NewV7()
	if err != nil {
		panic(err) // only when the system's random source fails
	}
	return id
}
