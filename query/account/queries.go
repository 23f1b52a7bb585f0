package account

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/go-jet/jet/v2/qrm"
	"github.com/google/uuid"

	"agora/internal/apperr"
	"agora/internal/auth"
	"agora/internal/db/gen/model"
	"agora/internal/db/gen/table"
	"agora/internal/jsontime"
)

// Queries reads accounts from Postgres (the read pool).
type Queries struct {
	db       *sql.DB
	now      func() time.Time
	sessions sessionCache
}

// New returns the account queries over db.
func New(db *sql.DB) *Queries {
	if db == nil {
		panic("account.New: nil db")
	}
	return &Queries{db: db, now: time.Now}
}

// Principal is who a valid bearer token speaks for.
type Principal struct {
	UserID    uuid.UUID
	SessionID uuid.UUID
	Role      auth.Role
	ExpiresOn time.Time
}

// Authenticate resolves a bearer token. Unknown and revoked tokens are
// ErrTokenInvalid, expired ones ErrTokenExpired.
func (q *Queries) Authenticate(ctx context.Context, token string) (Principal, error) {
	// Every signed-in request runs this before its own work, so it is one
	// fixed statement rather than a jet statement built and mapped by
	// reflection per call: that cost as much CPU as a whole feed page
	// (cmd/bench -only feed, profiled).
	hash := auth.HashToken(token)
	key := string(hash)
	if p, ok := q.sessions.get(key, q.now()); ok {
		return p, nil
	}
	var p Principal
	var role string
	var revoked sql.NullTime
	err := q.db.QueryRowContext(ctx, `SELECT s.id, s.user_id, s.expires_on, s.revoked_on, u.role
		FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1`, hash).
		Scan(&p.SessionID, &p.UserID, &p.ExpiresOn, &revoked, &role)
	if errors.Is(err, sql.ErrNoRows) {
		return Principal{}, apperr.ErrTokenInvalid
	}
	if err != nil {
		return Principal{}, fmt.Errorf("account: authenticate: %w", err)
	}
	if revoked.Valid {
		return Principal{}, apperr.ErrTokenInvalid
	}
	if !q.now().Before(p.ExpiresOn) {
		return Principal{}, apperr.ErrTokenExpired
	}
	p.Role = auth.Role(role)
	q.sessions.put(key, p, q.now())
	return p, nil
}

// ForgetSessions drops every remembered session: call it after a
// revocation (sign-out, password change or reset), so that this node
// refuses the revoked sessions at once.
func (q *Queries) ForgetSessions() { q.sessions.clear() }

// User reads a user by id.
func (q *Queries) User(ctx context.Context, id uuid.UUID) (User, error) {
	var u model.Users
	err := SELECT(table.Users.AllColumns).FROM(table.Users).WHERE(table.Users.ID.EQ(UUID(id))).QueryContext(ctx, q.db, &u)
	if errors.Is(err, qrm.ErrNoRows) {
		return User{}, apperr.ErrNotFound
	}
	if err != nil {
		return User{}, fmt.Errorf("account: user: %w", err)
	}
	return UserOf(u), nil
}

// Decoded is what GET /tokens/decode answers about the caller's token.
type Decoded struct {
	User      User          `json:"user"`
	Role      auth.Role     `json:"role"`
	SessionID uuid.UUID     `json:"sessionId"`
	ExpiresOn jsontime.Time `json:"expiresOn"`
}

// Decode describes the caller's session.
func (q *Queries) Decode(ctx context.Context, p Principal) (Decoded, error) {
	u, err := q.User(ctx, p.UserID)
	if err != nil {
		return Decoded{}, err
	}
	return Decoded{User: u, Role: p.Role, SessionID: p.SessionID, ExpiresOn: jsontime.Of(p.ExpiresOn)}, nil
}

// Profile reads a profile that viewer may see: their own, one sharing an
// active community with them, or any in an organization they administer.
// Super users see every profile. Others get not found, so that profile ids
// cannot be probed.
func (q *Queries) Profile(ctx context.Context, viewer Principal, id uuid.UUID) (Profile, error) {
	var row struct {
		model.Profiles
		User *model.Users `alias:"user"`
	}
	owner := table.Users.AS("user")
	stmt := SELECT(table.Profiles.AllColumns, owner.AllColumns).
		FROM(table.Profiles.LEFT_JOIN(owner, owner.ID.EQ(table.Profiles.UserID))).
		WHERE(table.Profiles.ID.EQ(UUID(id)).AND(visibleTo(viewer)))
	if err := stmt.QueryContext(ctx, q.db, &row); err != nil {
		if errors.Is(err, qrm.ErrNoRows) {
			return Profile{}, apperr.ErrNotFound
		}
		return Profile{}, fmt.Errorf("account: profile: %w", err)
	}
	v := ProfileOf(row.Profiles, row.User)
	var expert []model.Series
	err := SELECT(table.Series.ID, table.Series.Name).
		FROM(table.Series.INNER_JOIN(table.SeriesMemberships, table.SeriesMemberships.SeriesID.EQ(table.Series.ID))).
		WHERE(table.SeriesMemberships.ProfileID.EQ(UUID(id)).AND(table.SeriesMemberships.IsExpert.IS_TRUE())).
		ORDER_BY(table.Series.Name).QueryContext(ctx, q.db, &expert)
	if err != nil && !errors.Is(err, qrm.ErrNoRows) {
		return Profile{}, fmt.Errorf("account: profile expertise: %w", err)
	}
	for _, s := range expert {
		v.ExpertInSeries = append(v.ExpertInSeries, SeriesRef{ID: s.ID, Name: s.Name})
	}
	return v, nil
}

// visibleTo is the condition under which viewer may read a profile row.
func visibleTo(viewer Principal) BoolExpression {
	if viewer.Role == auth.RoleSuper {
		return Bool(true)
	}
	me := UUID(viewer.UserID)
	mine := table.Profiles.AS("mine")
	theirs := table.CommunityMemberships.AS("theirs")
	ours := table.CommunityMemberships.AS("ours")
	sharesCommunity := EXISTS(
		SELECT(theirs.ProfileID).
			FROM(theirs.
				INNER_JOIN(ours, ours.CommunityID.EQ(theirs.CommunityID)).
				INNER_JOIN(mine, mine.ID.EQ(ours.ProfileID))).
			WHERE(theirs.ProfileID.EQ(table.Profiles.ID).
				AND(mine.UserID.EQ(me)).
				AND(ours.Status.EQ(String("active")))),
	)
	adminMine := table.Profiles.AS("admin_mine")
	administersOrg := EXISTS(
		SELECT(adminMine.ID).FROM(adminMine).
			WHERE(adminMine.UserID.EQ(me).
				AND(adminMine.OrganizationID.EQ(table.Profiles.OrganizationID)).
				AND(adminMine.Role.EQ(String("admin")))),
	)
	return table.Profiles.UserID.EQ(me).OR(sharesCommunity).OR(administersOrg)
}
