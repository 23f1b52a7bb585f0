package answer

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"agora/search"
)

// Request is one question to answer.
type Request struct {
	// SearchID names the conversation; a follow-up reuses it.
	SearchID string
	// Question is what the asker typed.
	Question string
	// Posts are the retrieved posts, best first, already limited to those the
	// asker may read: the answer cites them as [1] … [len(Posts)].
	Posts []search.Post
	// History holds the earlier turns of a follow-up, oldest first.
	History []Turn
	// Frequencies are how many of the forum's posts hold each word of the
	// question and of the previous one, or nil: the extractive answer then
	// weighs the words by the request's posts alone.
	Frequencies *Frequencies
}

// Frequencies are how many posts hold each of some words, of how many in
// all: a word few of the forum's posts hold says more of what a thread is
// about than one most of them hold.
type Frequencies struct {
	// Posts is how many posts there are in all.
	Posts int
	// Words maps each word (as words.Terms reads it) to how many of the
	// posts hold it.
	Words map[string]int
}

// Turn is an earlier question and its answer in the same search.
type Turn struct {
	Question string
	Answer   string
	// Cited are the ids of the posts the answer cited, in order.
	Cited []string
}

// Answerer writes an answer to a request from its posts.
type Answerer interface {
	// Answer calls emit with each piece of the answer as it is made and
	// returns the whole text, whose citation markers [n] refer to
	// req.Posts[n-1]. It stops, with the context's error, once ctx is done.
	Answer(ctx context.Context, req Request, emit func(text string) error) (string, error)
}

// Result is what a finished search leaves, for storing it.
type Result struct {
	Answer    string
	Citations []string
}

// ErrEmptyQuestion is returned for a blank question: the search box submits
// only non-empty text (spec 001 §6), so a blank one is a bad request.
var ErrEmptyQuestion = errors.New("answer: empty question")

// Run streams one search: the threads event, the answerer's completion
// events, then the answer event with the ids of the given posts the text
// cites. On error (a cancelled context, a failed model call, a writer that
// went away) no answer event is written.
//
// keep, when not nil, is called with the whole answer before the answer
// event is written, so that what a client reads as done is already stored
// (a follow-up sent at once finds it); its error ends the stream instead.
func Run(ctx context.Context, a Answerer, req Request, s *Stream, keep func(Result) error) (Result, error) {
	if strings.TrimSpace(req.Question) == "" {
		return Result{}, ErrEmptyQuestion
	}
	if err := s.Threads(req.Posts); err != nil {
		return Result{}, err
	}
	text, err := a.Answer(ctx, req, func(t string) error {
		if t == "" {
			return nil
		}
		return s.Completion(t)
	})
	if err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	res := Result{Answer: text, Citations: Citations(text, req.Posts)}
	if keep != nil {
		if err := keep(res); err != nil {
			return Result{}, err
		}
	}
	if err := s.Answer(res.Answer, res.Citations); err != nil {
		return Result{}, err
	}
	return res, nil
}

// markerRE matches citation markers: [1], [2, 3].
var markerRE = regexp.MustCompile(`\[(\d{1,4}(?:\s*,\s*\d{1,4})*)\]`)

// Citations returns the ids of the posts that the text's markers cite, in
// order of first citation, without repeats. A marker with no post behind it
// (a model's [9] when it was given three posts) cites nothing: only a given
// post can be cited.
func Citations(text string, posts []search.Post) []string {
	out := []string{}
	seen := map[int]bool{}
	for _, m := range markerRE.FindAllStringSubmatch(text, -1) {
		for _, part := range strings.Split(m[1], ",") {
			n, err := strconv.Atoi(strings.TrimSpace(part))
			if err != nil || n < 1 || n > len(posts) || seen[n] {
				continue
			}
			seen[n] = true
			out = append(out, posts[n-1].ID)
		}
	}
	return out
}
