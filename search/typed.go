package search

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// engine is what an adapter implements, once, for every index: documents as
// JSON, queries already validated against the schema. index[D] adds the
// types and the checks, so both adapters refuse the same things.
type engine interface {
	// upsert writes the documents; vectors, when not nil, holds each
	// document's vector (nil for one without), never one of zeros.
	upsert(ctx context.Context, s *schema, ids []string, docs []json.RawMessage, vectors [][]float32) error
	delete(ctx context.Context, s *schema, ids []string) error
	deleteWhere(ctx context.Context, s *schema, f Filter) error
	// search answers the hits' JSON sources, in order, and the total;
	// for a Vector query, nearest first.
	search(ctx context.Context, s *schema, q Query) ([]json.RawMessage, int, error)
	wait(ctx context.Context, s *schema) error
	rebuild(ctx context.Context, s *schema) error
	// all calls fn with the JSON of every document.
	all(ctx context.Context, s *schema, fn func(json.RawMessage) error) error
}

type index[D Document] struct {
	s   *schema
	eng engine
}

func (x index[D]) Upsert(ctx context.Context, docs ...D) error {
	if len(docs) == 0 {
		return nil
	}
	ids := make([]string, len(docs))
	raws := make([]json.RawMessage, len(docs))
	var vectors [][]float32
	for i, d := range docs {
		if ids[i] = d.DocID(); strings.TrimSpace(ids[i]) == "" {
			return fmt.Errorf("%w (%s, position %d)", ErrBadDocument, x.s.name, i)
		}
		b, err := json.Marshal(d)
		if err != nil {
			return fmt.Errorf("search: encode %s %s: %w", x.s.name, ids[i], err)
		}
		raws[i] = b
		if v, ok := any(d).(vectored); ok && x.s.vectors && norm(v.vector()) > 0 {
			if vectors == nil {
				vectors = make([][]float32, len(docs))
			}
			vectors[i] = v.vector()
		}
	}
	return x.eng.upsert(ctx, x.s, ids, raws, vectors)
}

func (x index[D]) Delete(ctx context.Context, ids ...string) error {
	if len(ids) == 0 {
		return nil
	}
	return x.eng.delete(ctx, x.s, ids)
}

func (x index[D]) DeleteWhere(ctx context.Context, f Filter) error {
	if len(f) == 0 {
		return fmt.Errorf("%w: delete without a filter", ErrBadQuery)
	}
	if err := x.s.checkFilter(f); err != nil {
		return err
	}
	f, none := simplify(f)
	switch {
	case none:
		return nil
	case len(f) == 0:
		return fmt.Errorf("%w: delete with a filter that keeps everything", ErrBadQuery)
	}
	return x.eng.deleteWhere(ctx, x.s, f)
}

func (x index[D]) Search(ctx context.Context, q Query) (Result[D], error) {
	q, err := x.s.normalize(q)
	if err != nil {
		return Result[D]{}, err
	}
	f, none := simplify(q.Filter)
	if none {
		return Result[D]{Hits: []D{}}, nil
	}
	q.Filter = f
	if len(q.Vector) > 0 && norm(q.Vector) == 0 {
		return Result[D]{Hits: []D{}}, nil
	}
	raws, total, err := x.eng.search(ctx, x.s, q)
	if err != nil {
		return Result[D]{}, err
	}
	out := Result[D]{Hits: make([]D, 0, len(raws)), Total: total}
	for _, r := range raws {
		var d D
		if err := json.Unmarshal(r, &d); err != nil {
			return Result[D]{}, fmt.Errorf("search: decode a %s hit: %w", x.s.name, err)
		}
		out.Hits = append(out.Hits, d)
	}
	return out, nil
}

func (x index[D]) Wait(ctx context.Context) error    { return x.eng.wait(ctx, x.s) }
func (x index[D]) Rebuild(ctx context.Context) error { return x.eng.rebuild(ctx, x.s) }

func (x index[D]) All(ctx context.Context, fn func(D) error) error {
	return x.eng.all(ctx, x.s, func(raw json.RawMessage) error {
		var d D
		if err := json.Unmarshal(raw, &d); err != nil {
			return fmt.Errorf("search: decode a %s document: %w", x.s.name, err)
		}
		return fn(d)
	})
}

// normalize checks a query against the schema and fills in the defaults.
func (s *schema) normalize(q Query) (Query, error) {
	for _, f := range q.Fields {
		if !has(s.searchable, f) {
			return q, fmt.Errorf("%w: %s: %q is not a searchable field", ErrBadQuery, s.name, f)
		}
	}
	if err := s.checkFilter(q.Filter); err != nil {
		return q, err
	}
	if s.scoped && !hasReadableClause(q.Filter) {
		return q, ErrUnscoped
	}
	for _, o := range q.Sort {
		if !has(s.sortable, o.Field) {
			return q, fmt.Errorf("%w: %s: %q is not a sortable field", ErrBadQuery, s.name, o.Field)
		}
	}
	switch {
	case q.Limit < 0 || q.Offset < 0:
		return q, fmt.Errorf("%w: negative limit or offset", ErrBadQuery)
	case q.Limit == 0:
		q.Limit = DefaultLimit
	case q.Limit > MaxLimit:
		q.Limit = MaxLimit
	}
	q.Text = strings.TrimSpace(q.Text)
	if len(q.Vector) > 0 {
		switch {
		case !s.vectors:
			return q, fmt.Errorf("%w: %s holds no vectors", ErrBadQuery, s.name)
		case q.Text != "":
			return q, fmt.Errorf("%w: a vector query with text", ErrBadQuery)
		case len(q.Sort) > 0:
			return q, fmt.Errorf("%w: a vector query is ordered by nearness, not sorted", ErrBadQuery)
		}
	}
	return q, nil
}

func (s *schema) checkFilter(f Filter) error {
	for _, c := range f {
		if len(c) == 0 {
			return fmt.Errorf("%w: %s: empty filter clause", ErrBadQuery, s.name)
		}
		for _, t := range c {
			if !has(s.filterable, t.Field) {
				return fmt.Errorf("%w: %s: %q is not a filterable field", ErrBadQuery, s.name, t.Field)
			}
		}
	}
	return nil
}

// hasReadableClause reports whether some clause holds only positive
// readerIds and channelId terms, with a readerIds one: then every hit is
// readable by a named user or lives in a named channel.
func hasReadableClause(f Filter) bool {
	for _, c := range f {
		ok, reader := true, false
		for _, t := range c {
			switch {
			case t.Not:
				ok = false
			case t.Field == "readerIds":
				reader = true
			case t.Field != "channelId":
				ok = false
			}
		}
		if ok && reader {
			return true
		}
	}
	return false
}

// simplify drops what always holds (a clause with a Not term of no values)
// and what never does (a term of no values), so that the engines never see
// an empty list. none reports a clause that no document can pass.
func simplify(f Filter) (out Filter, none bool) {
	for _, c := range f {
		var kept Clause
		always := false
		for _, t := range c {
			switch {
			case len(t.Values) == 0 && t.Not:
				always = true
			case len(t.Values) > 0:
				kept = append(kept, t)
			}
		}
		if always {
			continue
		}
		if len(kept) == 0 {
			return nil, true
		}
		out = append(out, kept)
	}
	return out, false
}
