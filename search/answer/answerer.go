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
	// Agreed is the thread that both the keyword ranking and the posts
	// nearest the question in meaning put first, or "": two rankings
	// reading the question differently agree on its subject, so an
	// answer may come from it even when its words are not the question's.
	Agreed string
	// Hybrid is set when the posts were ranked by meaning as well as by
	// words, so that an empty Agreed says the two rankings differ.
	Hybrid bool
	// Meaning embeds texts as the posts were ranked by meaning, or is nil:
	// a paraphrase shares few words with the sentence that answers it,
	// and the extractive answer then reads the sentences' meaning.
	Meaning search.Embedder
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
// answerer's completion events, then the answer event: the whole text
// (what the completions add up to), the ids of the posts it cites and
// those posts alone as its sources. The text's markers number the posts
// as cited, in the completions already: the first post cited is [1]. A
// reader is shown what the answer cites, not all that was retrieved for
// it. On error (a cancelled context, a failed model call, a writer that
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
	// The completions are numbered as cited as they stream, so that they
	// add up to the answer event's text.
	cite := newCiter(req.Posts)
	var streamed, raw strings.Builder
	send := func(t string) error {
		if t == "" {
			return nil
		}
		streamed.WriteString(t)
		return s.Completion(t)
	}
	text, err := a.Answer(ctx, req, func(t string) error {
		raw.WriteString(t)
		return send(cite.write(t))
	})
	if err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	if raw.Len() == 0 {
		// An answerer that streamed nothing of its text: it comes now.
		if err := send(cite.write(text)); err != nil {
			return Result{}, err
		}
	}
	if err := send(cite.flush()); err != nil {
		return Result{}, err
	}
	res := cite.result(streamed.String())
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
// post is dropped with the spaces before it, and the cited posts are the
// result's sources under those numbers.
func Cite(text string, posts []search.Post) Result {
	c := newCiter(posts)
	return c.result(c.write(text) + c.flush())
}

// citer renumbers the markers of a text that comes in pieces, as Cite
// does the whole: a piece's tail that may be the start of a marker ("[",
// "[1", "[1, ") or the spaces that would go with a dropped one is held
// back until the next piece says what it is.
type citer struct {
	posts   []search.Post
	number  map[int]int // position in posts, from 1 → number as cited
	order   []int       // positions in posts, in order of first citation
	pending string
}

func newCiter(posts []search.Post) *citer {
	return &citer{posts: posts, number: map[int]int{}}
}

// openMarkerRE is a text's tail that may yet become a marker, with the
// spaces before it; a tail longer than any marker is text.
var openMarkerRE = regexp.MustCompile(` *(\[[\d\s,]{0,24})?$`)

// write returns what of the text so far can be given out, renumbered.
func (c *citer) write(piece string) string {
	text := c.pending + piece
	hold := openMarkerRE.FindStringIndex(text)[0]
	c.pending = text[hold:]
	return c.renumber(text[:hold])
}

// flush returns what write held back: what is left is no marker.
func (c *citer) flush() string {
	text := c.renumber(c.pending)
	c.pending = ""
	return text
}

func (c *citer) renumber(text string) string {
	return spacedMarkerRE.ReplaceAllStringFunc(text, func(m string) string {
		sub := spacedMarkerRE.FindStringSubmatch(m)
		var ns []string
		for _, part := range strings.Split(sub[2], ",") {
			n, err := strconv.Atoi(strings.TrimSpace(part))
			if err != nil || n < 1 || n > len(c.posts) {
				continue
			}
			if _, ok := c.number[n]; !ok {
				c.number[n] = len(c.order) + 1
				c.order = append(c.order, n)
			}
			ns = append(ns, strconv.Itoa(c.number[n]))
		}
		if len(ns) == 0 {
			return "" // with the spaces before it
		}
		return sub[1] + "[" + strings.Join(ns, ", ") + "]"
	})
}

// result is the answer text with the posts it cited.
func (c *citer) result(text string) Result {
	res := Result{Answer: text, Citations: []string{}, Sources: []Source{}}
	all := Sources(c.posts)
	for i, n := range c.order {
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
