// Package answer answers a question from a forum's own posts and streams the
// answer as newline-delimited JSON (spec 001 §4 "AI search flow", §7): one
// threads event with the posts retrieved, completion events with partial
// text, and a final answer event that is done and names the posts it cites.
//
// It knows nothing of HTTP routes or of how the posts were retrieved: the
// caller passes only posts the asker may read, and citations can only name
// those.
package answer

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"agora/internal/plumbing/jsontime"
	"agora/search"
)

// Event types of the stream.
const (
	TypeThreads    = "threads"
	TypeCompletion = "completion"
	TypeAnswer     = "answer"
)

// Event is one line of the stream. Which fields are set depends on Type:
// threads carries Posts (those retrieved), completion carries Text (to be
// appended to what came before), answer carries Answer, Citations, Posts
// (those cited, numbered as Answer's markers name them; absent when it
// cites none), Done and CreatedOn.
type Event struct {
	Type     string   `json:"type"`
	SearchID string   `json:"searchId"`
	Posts    []Source `json:"posts,omitempty"`
	Text     string   `json:"text,omitempty"`
	Answer   string   `json:"answer,omitempty"`
	// Citations are the ids of the posts the answer cites, in order of first
	// citation; always a list (possibly empty) on an answer event.
	Citations []string `json:"citations,omitempty"`
	Done      bool     `json:"done,omitempty"`
	CreatedOn string   `json:"createdOn,omitempty"`
}

// Source is a retrieved post as the threads event shows it. N is the number
// the answer's citation markers ([1], [2], …) use for it.
type Source struct {
	N         int    `json:"n"`
	ID        string `json:"id"`
	ThreadID  string `json:"threadId,omitempty"`
	ChannelID string `json:"channelId,omitempty"`
	Kind      string `json:"kind,omitempty"`
	Excerpt   string `json:"excerpt"`
}

// ExcerptRunes is the longest excerpt a threads event carries, in runes.
const ExcerptRunes = 200

// Stream writes events as JSON lines to a writer, flushing after each line
// so that a client sees every event as soon as it exists. The writer is
// flushed when it has a Flush() (http.Flusher) or Flush() error
// (bufio.Writer, as Fiber's stream writer is) method.
type Stream struct {
	w        io.Writer
	searchID string
	now      func() time.Time
}

// NewStream returns a stream of events for one search.
func NewStream(w io.Writer, searchID string) *Stream {
	return &Stream{w: w, searchID: searchID, now: time.Now}
}

// SearchID is the id every event of the stream carries.
func (s *Stream) SearchID() string { return s.searchID }

// Threads writes the threads event for the retrieved posts, numbered from 1
// in the order given.
func (s *Stream) Threads(posts []search.Post) error {
	return s.write(Event{Type: TypeThreads, Posts: Sources(posts)})
}

// Completion writes a completion event with a piece of the answer.
func (s *Stream) Completion(text string) error {
	return s.write(Event{Type: TypeCompletion, Text: text})
}

// Answer writes the final answer event with the posts it cites.
func (s *Stream) Answer(text string, citations []string, sources []Source) error {
	if citations == nil {
		citations = []string{}
	}
	return s.write(Event{
		Type: TypeAnswer, Answer: text, Citations: citations, Posts: sources, Done: true,
		CreatedOn: s.now().UTC().Format(jsontime.Layout),
	})
}

func (s *Stream) write(e Event) error {
	e.SearchID = s.searchID
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("answer: encode %s event: %w", e.Type, err)
	}
	line = append(line, '\n')
	if _, err := s.w.Write(line); err != nil {
		return fmt.Errorf("answer: write %s event: %w", e.Type, err)
	}
	switch f := s.w.(type) {
	case interface{ Flush() error }:
		if err := f.Flush(); err != nil {
			return fmt.Errorf("answer: flush %s event: %w", e.Type, err)
		}
	case interface{ Flush() }:
		f.Flush()
	}
	return nil
}

// Sources numbers the posts from 1 and cuts their excerpts.
func Sources(posts []search.Post) []Source {
	out := make([]Source, len(posts))
	for i, p := range posts {
		out[i] = Source{
			N: i + 1, ID: p.ID, ThreadID: p.ThreadID, ChannelID: p.ChannelID,
			Kind: p.Kind, Excerpt: Excerpt(p.Text, ExcerptRunes),
		}
	}
	return out
}

// Excerpt returns the text's whitespace collapsed and cut to at most max
// runes, at a word boundary when there is one, with an ellipsis when cut.
func Excerpt(text string, max int) string {
	text = strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(text) <= max {
		return text
	}
	r := []rune(text)[:max-1]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}
