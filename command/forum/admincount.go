package forum

import (
	"context"
	"sort"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
)

// AdminCount is POST /series/{id}/admin-count: a dry run of a staged
// state.
type AdminCount struct {
	auth.Caller
	SeriesID    uuid.UUID
	Assignments []Staged
}

// AdminCount returns the self-exclusive admin set: the forum's admins
// once the staged state applies, other than the actor (spec 001 §6). When
// it is empty, the actor would be the last admin; the client limits the
// role menu. Nothing is written.
func (s *Service) AdminCount(ctx context.Context, in AdminCount) ([]uuid.UUID, error) {
	f := apperr.Fields{}
	changes, order := parseStaged(f, in.Assignments)
	if err := f.Err(); err != nil {
		return nil, err
	}
	out := []uuid.UUID{}
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		st, err := stagedState(ctx, tx, in.Caller, in.SeriesID, order)
		if err != nil {
			return err
		}
		for id := range st.adminsAfter(changes) {
			if id != st.me {
				out = append(out, id)
			}
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out, err
}
