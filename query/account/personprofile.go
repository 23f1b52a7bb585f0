package account

import (
	"context"
	"errors"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
)

// PersonProfile is GET /users/{userId}/profile: what the profile dialog
// shows of a person (spec 000 §2.4, 002 §2 "Profile dialog", §3 Profile).
type PersonProfile struct {
	UserID       uuid.UUID `json:"userId"`
	FirstName    string    `json:"firstName"`
	LastName     string    `json:"lastName"`
	Email        string    `json:"email"`
	Avatar       *string   `json:"avatar"`
	JobTitle     string    `json:"jobTitle"`
	Company      string    `json:"company"`
	Bio          string    `json:"bio"`
	InterestTags []string  `json:"interestTags"`
	// Location is the forum the person is in now (spec 002 §3
	// presence.series.name): null, as Agora does not follow where a person
	// is.
	Location *string `json:"location"`
	// ExpertInSeries are the forums the person is an expert in, among those
	// the viewer reads: the dialog stars them in the current one.
	ExpertInSeries []uuid.UUID `json:"expertInSeries"`
	// Status is online, away, do-not-disturb or offline, as GET /peers tells it.
	Status string `json:"status"`
}

// PersonProfile reads a person's profile for viewer: their own, or a
// peer's (access.ActiveMemberOfAny of the viewer's communities). Anyone
// else is not found, as an unknown id is, so that user ids cannot be
// probed; a super user is no exception, as the dialog only opens on people
// the viewer meets.
func (q *Queries) PersonProfile(ctx context.Context, viewer auth.Caller, userID uuid.UUID) (PersonProfile, error) {
	u, o := table.Users, table.OnlineUsers
	where := u.ID.EQ(UUID(userID))
	if userID != viewer.UserID {
		communities, err := access.ActiveCommunities(ctx, q.db, viewer.UserID)
		if err != nil {
			return PersonProfile{}, err
		}
		if len(communities) == 0 {
			return PersonProfile{}, apperr.ErrNotFound
		}
		where = where.AND(access.ActiveMemberOfAny(u.ID, communities))
	}
	var p PersonProfile
	var status *string
	err := db.QueryRow(ctx, q.db, SELECT(u.ID, u.FirstName, u.LastName, u.Email, u.Avatar, u.JobTitle, u.Company, u.Bio, u.InterestTags, o.Status).
		FROM(u.LEFT_JOIN(o, o.UserID.EQ(u.ID))).WHERE(where)).
		Scan(&p.UserID, &p.FirstName, &p.LastName, &p.Email, &p.Avatar, &p.JobTitle, &p.Company, &p.Bio, &p.InterestTags, &status)
	if errors.Is(err, pgx.ErrNoRows) {
		return PersonProfile{}, apperr.ErrNotFound
	}
	if err != nil {
		return PersonProfile{}, fmt.Errorf("account: person profile: %w", err)
	}
	p.InterestTags, p.Status = nonNil(p.InterestTags), "offline"
	if status != nil {
		p.Status = *status
	}
	s, sm, pr := table.Series, table.SeriesMemberships, table.Profiles
	member, admin := access.ForumRules(s.ID, s.CommunityID, UUID(viewer.UserID), Bool(viewer.Role == auth.RoleSuper))
	p.ExpertInSeries, err = db.Values[uuid.UUID](ctx, q.db, SELECT(s.ID).DISTINCT().
		FROM(s.INNER_JOIN(sm, sm.SeriesID.EQ(s.ID)).INNER_JOIN(pr, pr.ID.EQ(sm.ProfileID))).
		WHERE(pr.UserID.EQ(UUID(userID)).AND(sm.IsExpert.IS_TRUE()).AND(sm.Status.EQ(String("active"))).AND(member.OR(admin))))
	if err != nil {
		return PersonProfile{}, fmt.Errorf("account: person profile expertise: %w", err)
	}
	if p.ExpertInSeries == nil {
		p.ExpertInSeries = []uuid.UUID{}
	}
	return p, nil
}
