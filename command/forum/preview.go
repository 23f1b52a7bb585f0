package forum

import (
	"context"

	"fmt"
	"strings"

	. "github.com/go-jet/jet/v2/postgres"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/membership"
)

// Preview is POST /series/{id}/assignments-invitations-preview.
type Preview struct {
	auth.Caller
	SeriesID    uuid.UUID
	Assignments []Staged
}

// PreviewActor names who gives access.
type PreviewActor struct {
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
}

// AssignmentPreview is the notice the people given access receive (spec
// 001 §3 Assignment preview): the notifications projection sends it, as a
// forum-access notification and its mail, to each of them who has an
// account (those without one are mailed an invitation).
type AssignmentPreview struct {
	Actor       PreviewActor `json:"actor"`
	From        string       `json:"from"`
	Subject     string       `json:"subject"`
	Description string       `json:"description"`
	// NumExpectedRecipients are the people the state adds to the forum.
	NumExpectedRecipients int `json:"numExpectedRecipients"`
	// TotalAssignees are the people the state gives a role.
	TotalAssignees int `json:"totalAssignees"`
}

// Preview describes what applying a staged state tells the people it
// gives access to, for the forum's admins. Nothing is written.
func (s *Service) Preview(ctx context.Context, in Preview) (AssignmentPreview, error) {
	f := apperr.Fields{}
	changes, order := parseStaged(f, in.Assignments)
	if err := f.Err(); err != nil {
		return AssignmentPreview{}, err
	}
	var p AssignmentPreview
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		st, err := stagedState(ctx, tx, in.Caller, in.SeriesID, order)
		if err != nil {
			return err
		}
		var forum, community, org string
		s, c, o, u := table.Series, table.Communities, table.Organizations, table.Users
		if err := db.QueryRow(ctx, tx, SELECT(u.FirstName, u.LastName, s.Name, c.Name, o.Name).
			FROM(s.INNER_JOIN(c, c.ID.EQ(s.CommunityID)).INNER_JOIN(o, o.ID.EQ(c.OrganizationID)).
				INNER_JOIN(u, u.ID.EQ(UUID(in.UserID)))).
			WHERE(s.ID.EQ(UUID(in.SeriesID)))).
			Scan(&p.Actor.FirstName, &p.Actor.LastName, &forum, &community, &org); err != nil {
			return fmt.Errorf("forum: preview: %w", err)
		}
		name := strings.TrimSpace(p.Actor.FirstName + " " + p.Actor.LastName)
		p.From = org
		p.Subject = membership.AccessSubject(name, forum)
		p.Description = membership.AccessDescription(forum, community)
		for id, c := range changes {
			if c.remove {
				continue
			}
			p.TotalAssignees++
			if _, member := st.members[id]; !member {
				p.NumExpectedRecipients++
			}
		}
		return nil
	})
	return p, err
}
