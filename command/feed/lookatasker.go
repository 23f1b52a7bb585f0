package feed

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/google/uuid"

	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/db"
)

// ErrNotAnonymous is a look at the asker of a post that is not an
// anonymous question: its creator is shown on the post itself.
var ErrNotAnonymous = apperr.New(apperr.BadInput, "threadNotAnonymous", "the post is not an anonymous question")

// LookAtAsker is GET /threads/{id}/asker.
type LookAtAsker struct {
	ThreadID uuid.UUID
	Actor    auth.Caller
}

// Asker is the person who asked an anonymous question, with the public
// fields of their profile (the shape of a reaction's actor).
type Asker struct {
	// ID is their profile in the forum's organization (their user id when
	// they have none).
	ID        uuid.UUID `json:"id"`
	UserID    uuid.UUID `json:"userId"`
	FirstName string    `json:"firstName"`
	LastName  string    `json:"lastName"`
	Avatar    *string   `json:"avatar"`
	JobTitle  string    `json:"jobTitle"`
	Company   string    `json:"company"`
}

// LookAtAsker shows who asked an anonymous question to those who
// administer its forum (internal/access: forum admins, admins of its
// community or organization, super users), for moderation, and records the
// look in the same transaction: a look that could not be recorded shows
// nothing. Members are refused before anything is read or written.
func (s *Service) LookAtAsker(ctx context.Context, in LookAtAsker) (Asker, error) {
	var a Asker
	err := db.InTx(ctx, s.db, func(tx *sql.Tx) error {
		t, f, err := loadThread(ctx, tx, in.Actor, in.ThreadID)
		if err != nil {
			return err
		}
		if !f.Admin {
			return apperr.ErrForbidden
		}
		var as string
		if err := tx.QueryRowContext(ctx, `SELECT creator_as FROM threads WHERE id = $1`, t.ID).Scan(&as); err != nil {
			return fmt.Errorf("feed: asker: %w", err)
		}
		if as != "anonymous" {
			return ErrNotAnonymous
		}
		err = tx.QueryRowContext(ctx, `SELECT COALESCE(p.id, u.id), u.id, u.first_name, u.last_name, u.avatar, u.job_title, u.company
			FROM users u
			LEFT JOIN LATERAL (SELECT p.id FROM profiles p JOIN communities c ON c.organization_id = p.organization_id
			                   WHERE c.id = $2 AND p.user_id = u.id LIMIT 1) p ON true
			WHERE u.id = $1`, t.CreatorID, f.CommunityID).
			Scan(&a.ID, &a.UserID, &a.FirstName, &a.LastName, &a.Avatar, &a.JobTitle, &a.Company)
		if err != nil {
			return fmt.Errorf("feed: asker: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO anonymous_asker_looks (id, thread_id, viewer_id, looked_on) VALUES ($1, $2, $3, $4)`,
			newID(), t.ID, in.Actor.UserID, s.timestamp()); err != nil {
			return fmt.Errorf("feed: record the look: %w", err)
		}
		return nil
	})
	return a, err
}
