package feed

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
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
// administer its forum (internal/rules/access: forum admins, admins of its
// community or organization, super users), for moderation, and records the
// look in the same transaction: a look that could not be recorded shows
// nothing. Members are refused before anything is read or written.
func (s *Service) LookAtAsker(ctx context.Context, in LookAtAsker) (Asker, error) {
	var a Asker
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		t, f, err := loadThread(ctx, tx, in.Actor, in.ThreadID)
		if err != nil {
			return err
		}
		if !f.Admin {
			return apperr.ErrForbidden
		}
		var as string
		if err := db.QueryRow(ctx, tx, SELECT(table.Threads.CreatorAs).FROM(table.Threads).WHERE(table.Threads.ID.EQ(UUID(t.ID)))).Scan(&as); err != nil {
			return fmt.Errorf("feed: asker: %w", err)
		}
		if as != "anonymous" {
			return ErrNotAnonymous
		}
		u, p, c := table.Users, table.Profiles, table.Communities
		profile := LATERAL(SELECT(p.ID).FROM(p.INNER_JOIN(c, c.OrganizationID.EQ(p.OrganizationID))).
			WHERE(c.ID.EQ(UUID(f.CommunityID)).AND(p.UserID.EQ(u.ID))).LIMIT(1)).AS("p")
		profileID := p.ID.From(profile)
		err = db.QueryRow(ctx, tx, SELECT(COALESCE(profileID, u.ID), u.ID, u.FirstName, u.LastName, u.Avatar, u.JobTitle, u.Company).
			FROM(u.LEFT_JOIN(profile, Bool(true))).
			WHERE(u.ID.EQ(UUID(t.CreatorID)))).
			Scan(&a.ID, &a.UserID, &a.FirstName, &a.LastName, &a.Avatar, &a.JobTitle, &a.Company)
		if err != nil {
			return fmt.Errorf("feed: asker: %w", err)
		}
		if _, err := db.Exec(ctx, tx, table.AnonymousAskerLooks.INSERT(table.AnonymousAskerLooks.AllColumns).
			MODEL(model.AnonymousAskerLooks{ID: newID(), ThreadID: t.ID, ViewerID: in.Actor.UserID, LookedOn: s.timestamp()})); err != nil {
			return fmt.Errorf("feed: record the look: %w", err)
		}
		return nil
	})
	return a, err
}
