package search

import (
	"context"

	"github.com/google/uuid"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/paging"
)

// NewPeersOnly is Queries for the peers list alone, which reads Postgres
// only when the search has no terms.
func NewPeersOnly(d *db.DB) *Queries { return &Queries{db: d} }

// PinnedPeerPage is the peers list with the pinned peers given, as the
// private chat tables would give them.
func (q *Queries) PinnedPeerPage(ctx context.Context, in PeerSearch, communities []uuid.UUID, pinned []uuid.UUID) (paging.Page[Peer], error) {
	return q.sortedPeerPage(ctx, in, communities, nil, pinned)
}
