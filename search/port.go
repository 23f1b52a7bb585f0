package search

import (
	"context"
	"errors"
)

// Store is the search read store: one index per kind of document Agora
// searches. Projections write to it (idempotently: an upsert by id replaces,
// a delete of a missing id succeeds); query handlers read from it. Both
// adapters (Meilisearch, and the embedded Bleve engine) satisfy the one
// contract suite in search/searchtest.
type Store interface {
	// Members holds member profiles for the member search of the share and
	// access dialogs, assignables by keyword and mention candidates.
	Members() Index[Member]
	// Hashtags holds one document per hashtag and forum, with its use count.
	Hashtags() Index[Hashtag]
	// Posts holds threads, comments and replies with who may read them.
	// Every search of it must carry a ReadableBy clause (ErrUnscoped).
	Posts() Index[Post]
	// Peers holds the people a member may chat with, for the private chat
	// peer search (spec 002 §5).
	Peers() Index[Peer]
	// Close releases the store; the indexes are unusable afterwards.
	Close() error
}

// Index is one index of documents of type D, keyed by D's DocID.
type Index[D Document] interface {
	// Upsert adds the documents or replaces those with the same id, whole
	// (with its vector: a document upserted without one has none). A
	// vector of zeros is kept as none, as it is near nothing.
	Upsert(ctx context.Context, docs ...D) error
	// Delete removes the documents with these ids; missing ids are no error.
	Delete(ctx context.Context, ids ...string) error
	// DeleteWhere removes every document that passes the filter, for
	// example every post of a deleted forum. An empty filter is refused
	// (ErrBadQuery): Rebuild empties an index.
	DeleteWhere(ctx context.Context, f Filter) error
	// Search runs a query. The text, when not blank, is lower-cased, freed
	// of accents and split into words (on spaces, commas, punctuation);
	// every word must match some searched field, exactly, with one typo in
	// words of 5 to 8 letters and two from 9, and the last word also as a
	// prefix (type-ahead). A typo in a word's first letter is not promised
	// to match (the embedded engine requires that letter). Without Sort, results come by relevance
	// (BM25 in the embedded engine, Meilisearch's ranking rules otherwise);
	// with Sort, in that order, relevance breaking ties.
	Search(ctx context.Context, q Query) (Result[D], error)
	// Wait returns once every write made through this index so far is
	// searchable and kept, or reports the first that failed. The embedded
	// engine's writes are searchable and on disk when they return;
	// Meilisearch applies writes asynchronously. So a projection calls
	// Wait before it commits its offsets.
	Wait(ctx context.Context) error
	// Rebuild drops the index and recreates it empty with its settings, for
	// a projection that replays a snapshot into it.
	Rebuild(ctx context.Context) error
	// All calls fn with every document of the index (without its vector),
	// in no promised order: the whole index, which agora projector check
	// compares with a rebuild. Writes during the call may or may not show.
	All(ctx context.Context, fn func(D) error) error
}

// Document is what an index holds: a JSON-encodable struct with an id.
type Document interface {
	DocID() string
}

// Query is a search of one index.
type Query struct {
	// Text is what the person typed; blank matches every document that
	// passes the filter.
	Text string
	// Fields restricts the text to these searchable fields (the peer search
	// criteria); empty searches them all.
	Fields []string
	// AnyWord makes every word of Text optional: a document matches when
	// it holds one of them (each word also as the start of a longer word,
	// from four letters: "deploy" finds "deployment"), and ranks by how
	// many, and how rare, the words it holds. It gathers the candidates an
	// answer is ranked from; a question in plain words rarely has a post
	// holding every one of its words. Words so common that they tell
	// nothing (see Search) are left out of it.
	AnyWord bool
	// Filter keeps only the documents that pass it.
	Filter Filter
	// Sort orders the results; empty means by relevance.
	Sort []Sort
	// Limit is the most hits returned: 0 means DefaultLimit, and at most
	// MaxLimit.
	Limit int
	// Offset skips that many hits, for paging.
	Offset int
	// Vector, when set, asks for the documents nearest to it: those that
	// pass the filter and have a vector come back by cosine similarity,
	// nearest first (Limit and Offset apply). Text and Sort must then be
	// empty (ErrBadQuery); only the post index holds vectors. A vector of
	// zeros is near nothing and finds nothing. The embedded engine finds
	// them in a nearest-neighbour graph (search/hnsw: about 0.95 of the
	// exact nearest or more), or scores each exactly when the filter
	// admits few documents.
	Vector []float32
}

// Limits of a query's page.
const (
	DefaultLimit = 20
	MaxLimit     = 1000
)

// Sort orders results by one sortable field.
type Sort struct {
	Field string
	Desc  bool
}

// Filter is a conjunction: a document passes when it passes every clause.
type Filter []Clause

// Clause is a disjunction: a document passes when any of its terms holds.
type Clause []Term

// Term holds when the field (a filterable field, or a list of them) has one
// of the values; with Not, when it has none of them.
type Term struct {
	Field  string
	Values []string
	Not    bool
}

// In is the clause "field has one of values".
func In(field string, values ...string) Clause {
	return Clause{{Field: field, Values: values}}
}

// NotIn is the clause "field has none of values", for example to leave out
// the asker from a peer search or people already invited.
func NotIn(field string, values ...string) Clause {
	return Clause{{Field: field, Values: values, Not: true}}
}

// ReadableBy is the permission clause of a post search: the post names the
// user among its readers, or it lives in one of the channels the user may
// read (the caller resolves those from the user's forum memberships). A post
// outside both never comes back.
func ReadableBy(userID string, channelIDs ...string) Clause {
	c := Clause{{Field: "readerIds", Values: []string{userID}}}
	if len(channelIDs) > 0 {
		c = append(c, Term{Field: "channelId", Values: channelIDs})
	}
	return c
}

// Result is one page of hits.
type Result[D Document] struct {
	Hits []D
	// Total counts every document that matches (an estimate from
	// Meilisearch, which stops counting at its maxTotalHits), for a "more
	// results" line.
	Total int
}

var (
	// ErrBadQuery is returned for a query or filter that names an unknown
	// field, or a field used in a way its index does not allow.
	ErrBadQuery = errors.New("search: bad query")
	// ErrUnscoped is returned for a post search without a ReadableBy clause:
	// a post search that forgets permissions fails rather than leaks.
	ErrUnscoped = errors.New("search: post search without a readable-by clause")
	// ErrBadDocument is returned for a document without an id.
	ErrBadDocument = errors.New("search: document without an id")
	// ErrUnavailable wraps the error of a search server that cannot be
	// reached or cannot serve now (down, restarting, overloaded; the
	// embedded engine's disk full), so a caller can retry later rather
	// than give up on the request.
	ErrUnavailable = errors.New("search: the search server is unavailable")
)

// Embedder turns texts into vectors, one per text, all of one dimension,
// whose cosine similarity says how close two texts are in meaning: a
// configured embedding model (or agora dev's local word vectors). Posts
// are indexed with theirs, so that a question finds the posts that say
// the same in other words.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}
