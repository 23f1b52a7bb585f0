package account

import (
	"context"
	"errors"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/jsontime"
	"agora/internal/rules/access"
)

// Queries reads accounts from Postgres (the read pool).
type Queries struct {
	db       *pgxpool.Pool
	now      func() time.Time
	sessions sessionCache
}

// New returns the account queries over d. It keeps the one-value shape
// its callers compose inline, and panics on a nil dependency.
func New(d *db.DB) (*Queries, error) {
	if d == nil || d.Pool == nil {
		return nil, errors.New("account.New: nil dependency")
	}
	return &Queries{db: d.Pool, now: time.Now}, nil
}

// authenticateSQL and sessionSQL are the statements of Authenticate and
// Session, built once: their one argument is the token hash, the session
// id.
var authenticateSQL, sessionSQL = func() (string, string) {
	s, u := table.Sessions, table.Users
	sel := SELECT(s.ID, s.UserID, s.ExpiresOn, s.RevokedOn, u.Role).FROM(s.INNER_JOIN(u, u.ID.EQ(s.UserID)))
	byHash, _ := sel.WHERE(s.TokenHash.EQ(Bytea([]byte{}))).Sql()
	byID, _ := sel.WHERE(s.ID.EQ(UUID(uuid.Nil))).Sql()
	return byHash, byID
}()

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
	// Every signed-in request runs this before its own work, so its jet
	// statement is built once (authenticateSQL) and scanned by position
	// rather than built and mapped by reflection per call: that cost as
	// much CPU as a whole feed page (cmd/bench -only feed, profiled).
	hash := auth.HashToken(token)
	key := string(hash)
	if p, ok := q.sessions.get(key, q.now()); ok {
		return p, nil
	}
	p, err := q.principal(ctx, authenticateSQL, hash)
	if err != nil {
		return Principal{}, err
	}
	q.sessions.put(key, p, q.now())
	return p, nil
}

// Session is who session id speaks for, under Authenticate's rules: for a
// hub ticket, which names its session rather than carrying its token.
func (q *Queries) Session(ctx context.Context, id uuid.UUID) (Principal, error) {
	return q.principal(ctx, sessionSQL, id)
}

// principal reads the session statement finds by arg: an unknown or
// signed-out session is ErrTokenInvalid, an expired one ErrTokenExpired.
func (q *Queries) principal(ctx context.Context, statement string, arg any) (Principal, error) {
	var p Principal
	var role string
	var revoked *time.Time
	err := q.db.QueryRow(ctx, statement, arg).
		Scan(&p.SessionID, &p.UserID, &p.ExpiresOn, &revoked, &role)
	if errors.Is(err, pgx.ErrNoRows) {
		return Principal{}, apperr.ErrTokenInvalid
	}
	if err != nil {
		return Principal{}, fmt.Errorf("account: authenticate: %w", err)
	}
	if revoked != nil {
		return Principal{}, apperr.ErrTokenInvalid
	}
	if !q.now().Before(p.ExpiresOn) {
		return Principal{}, apperr.ErrTokenExpired
	}
	p.Role = auth.Role(role)
	return p, nil
}

// ForgetSessions drops every remembered session: call it after a
// revocation (sign-out, password change or reset), so that this node
// refuses the revoked sessions at once.
func (q *Queries) ForgetSessions() { q.sessions.clear() }

// User reads a user by id.
func (q *Queries) User(ctx context.Context, id uuid.UUID) (User, error) {
	u, err := db.One[model.Users](ctx, q.db, SELECT(table.Users.AllColumns).FROM(table.Users).WHERE(table.Users.ID.EQ(UUID(id))))
	if errors.Is(err, pgx.ErrNoRows) {
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
	owner := table.Users.AS("user")
	stmt := SELECT(table.Profiles.AllColumns, owner.AllColumns).
		FROM(table.Profiles.LEFT_JOIN(owner, owner.ID.EQ(table.Profiles.UserID))).
		WHERE(table.Profiles.ID.EQ(UUID(id)).AND(visibleTo(viewer)))
	row, err := db.One[struct {
		model.Profiles
		profileOwner
	}](ctx, q.db, stmt)
	if err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return Profile{}, apperr.ErrNotFound
		}
		return Profile{}, fmt.Errorf("account: profile: %w", err)
	}
	v := ProfileOf(row.Profiles, row.profileOwner.user())
	expert, err := db.All[model.Series](ctx, q.db, SELECT(table.Series.ID, table.Series.Name).
		FROM(table.Series.INNER_JOIN(table.SeriesMemberships, table.SeriesMemberships.SeriesID.EQ(table.Series.ID))).
		WHERE(table.SeriesMemberships.ProfileID.EQ(UUID(id)).AND(table.SeriesMemberships.IsExpert.IS_TRUE())).
		ORDER_BY(table.Series.Name))
	if err != nil {
		return Profile{}, fmt.Errorf("account: profile expertise: %w", err)
	}
	for _, s := range expert {
		v.ExpertInSeries = append(v.ExpertInSeries, SeriesRef{ID: s.ID, Name: s.Name})
	}
	return v, nil
}

// profileOwner is the user joined to a profile, aliased "user", whose columns are
// all NULL when the profile has no user: model.Users cannot hold that.
type profileOwner struct {
	ID             *uuid.UUID `db:"user.id"`
	Email          *string    `db:"user.email"`
	FirstName      *string    `db:"user.first_name"`
	LastName       *string    `db:"user.last_name"`
	Avatar         *string    `db:"user.avatar"`
	JobTitle       *string    `db:"user.job_title"`
	Company        *string    `db:"user.company"`
	Bio            *string    `db:"user.bio"`
	InterestTags   []string   `db:"user.interest_tags"`
	School         *string    `db:"user.school"`
	Degree         *string    `db:"user.degree"`
	FieldOfStudy   *string    `db:"user.field_of_study"`
	GraduationYear *int32     `db:"user.graduation_year"`
	// The other columns of users are read and left aside.
	EmailKey     *string    `db:"user.email_key"`
	PasswordHash *string    `db:"user.password_hash"`
	Role         *string    `db:"user.role"`
	CreatedOn    *time.Time `db:"user.created_on"`
	UpdatedOn    *time.Time `db:"user.updated_on"`
}

// user is the joined user, or nil.
func (o profileOwner) user() *model.Users {
	if o.ID == nil {
		return nil
	}
	s := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	return &model.Users{
		ID: *o.ID, Email: s(o.Email), FirstName: s(o.FirstName), LastName: s(o.LastName), Avatar: o.Avatar,
		JobTitle: s(o.JobTitle), Company: s(o.Company), Bio: s(o.Bio), InterestTags: o.InterestTags,
		School: s(o.School), Degree: s(o.Degree), FieldOfStudy: s(o.FieldOfStudy), GraduationYear: o.GraduationYear,
	}
}

// visibleTo is the condition under which viewer may read a profile row
// (internal/rules/access's ProfileVisible, the rule the live events about
// a person ask too).
func visibleTo(viewer Principal) BoolExpression {
	return access.ProfileVisible(viewer.UserID, viewer.Role == auth.RoleSuper)
}
