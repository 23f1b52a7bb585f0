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
	// Authors are the display names of the posts' authors by AuthorID, so
	// that the answer says who said what. An anonymous post has no
	// AuthorID and so no name; a missing map names no one.
	Authors map[string]string
}

// Author is the display name the answer gives the post's author: none for
// an anonymous post, for Meet Up minutes (the note-taker wrote them, not
// the Meet Up's creator whose id they carry) and for an author the request
// has no name for.
func (r Request) Author(p search.Post) string {
	if p.AuthorID == "" || p.Kind == search.KindMinutes {
		return ""
	}
	return strings.TrimSpace(r.Authors[p.AuthorID])
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
	// Answer is the text with its markers numbered as cited: the first
	// post cited is [1], the next one [2].
	Answer string
	// Citations are the ids of the posts cited, in order of first citation.
	Citations []string
	// Sources are the cited posts, each with the number Answer's markers
	// give it: the sources the answer lists, and only those.
	Sources []Source
}

// ErrEmptyQuestion is returned for a blank question: the search box submits
// only non-empty text (spec 001 §6), so a blank one is a bad request.
var ErrEmptyQuestion = errors.New("answer: empty question")

// Run streams one search: the threads event with the posts retrieved, the
// answerer's completion events (whose markers number the posts as the
// threads event does), then the answer event: the whole text with its
// markers numbered as cited, the ids of the posts it cites and those posts
// alone as its sources. A reader is shown what the answer cites, not all
// that was retrieved for it. On error (a cancelled context, a failed model call, a writer that
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
	res := Cite(text, req.Posts)
	if keep != nil {
		if err := keep(res); err != nil {
			return Result{}, err
		}
	}
	if err := s.Answer(res.Answer, res.Citations, res.Sources); err != nil {
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
	return Cite(text, posts).Citations
}

// Cite numbers the text's markers as cited: the first post a marker names
// becomes [1], the next new one [2], and so on, a marker naming no given
// post is dropped, and the cited posts are the result's sources under
// those numbers.
func Cite(text string, posts []search.Post) Result {
	number := map[int]int{} // position in posts → number as cited
	var order []int
	text = spacedMarkerRE.ReplaceAllStringFunc(text, func(m string) string {
		sub := spacedMarkerRE.FindStringSubmatch(m)
		var ns []string
		for _, part := range strings.Split(sub[2], ",") {
			n, err := strconv.Atoi(strings.TrimSpace(part))
			if err != nil || n < 1 || n > len(posts) {
				continue
			}
			if _, ok := number[n]; !ok {
				number[n] = len(order) + 1
				order = append(order, n)
			}
			ns = append(ns, strconv.Itoa(number[n]))
		}
		if len(ns) == 0 {
			return "" // with the spaces before it
		}
		return sub[1] + "[" + strings.Join(ns, ", ") + "]"
	})
	res := Result{Answer: text, Citations: []string{}, Sources: []Source{}}
	all := Sources(posts)
	for i, n := range order {
		src := all[n-1]
		src.N = i + 1
		res.Citations = append(res.Citations, src.ID)
		res.Sources = append(res.Sources, src)
	}
	return res
}

// spacedMarkerRE is a marker with the spaces before it, which go with it
// when it is dropped ("fail [9]." is "fail.").
var spacedMarkerRE = regexp.MustCompile(`( *)` + markerRE.String())
