package searchindex

import (
	"context"
	"encoding/json"

	"agora/projections"
	"agora/search"
)

var _ projections.Checked = (*Projection)(nil)

// Into is the same projection writing to store: a scratch store that
// agora projector check fills from a snapshot to compare with this one's.
func (p *Projection) Into(store search.Store) *Projection {
	c := *p
	c.store = store
	return &c
}

// Records lists every document of the four indexes, keyed by index and
// id, as its JSON (vectors left out: the same embedder gives the same
// vector for the same text, and a vector's floats need no comparing).
func (p *Projection) Records(ctx context.Context, emit func(key, content string) error) error {
	for _, list := range []func() error{
		func() error { return records(ctx, "members", p.store.Members(), emit) },
		func() error { return records(ctx, "peers", p.store.Peers(), emit) },
		func() error { return records(ctx, "posts", p.store.Posts(), emit) },
		func() error { return records(ctx, "hashtags", p.store.Hashtags(), emit) },
	} {
		if err := list(); err != nil {
			return err
		}
	}
	return nil
}

func records[D search.Document](ctx context.Context, name string, x search.Index[D], emit func(key, content string) error) error {
	return x.All(ctx, func(d D) error {
		b, err := json.Marshal(d)
		if err != nil {
			return err
		}
		return emit(name+"/"+d.DocID(), string(b))
	})
}
