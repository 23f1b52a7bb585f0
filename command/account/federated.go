package account

import (
	"context"
	"errors"
	"fmt"
	"strings"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
)

// Errors of a single sign-on (catalogue codes of ours: the spec is silent).
var (
	// ErrSSONotMember is an address the organization holds no profile for:
	// its identity provider speaks for the organization's people only.
	ErrSSONotMember = apperr.New(apperr.Forbidden, "ssoNotMember", "this address is not a member of the organization")
	// ErrSSOAccountNotLinked is an account that exists but has not joined
	// the organization's profile. An organization's admin chooses the
	// profiles' addresses and runs its identity provider, so letting that
	// provider sign in any account of the address would let the admin take
	// over accounts of other organizations: the person accepts the
	// organization's invitation with their password once, then signs in
	// through the provider.
	ErrSSOAccountNotLinked = apperr.New(apperr.Conflict, "ssoAccountNotLinked",
		"an account with this address exists: sign in with your password and accept the organization's invitation to use single sign-on")
	// ErrSSONotAllowed is a super user: their rights span every
	// organization, so no organization's provider may sign them in.
	ErrSSONotAllowed = apperr.New(apperr.Forbidden, "ssoNotAllowed", "this account signs in with its password")
)

// joinSSOCommunities makes the person an active member of every community
// of the organization open to single sign-on (communities.sso_access): the
// organization's identity provider vouching for its person is the access
// those communities ask for. Memberships already there are kept as they
// are (an admin stays an admin).
func (s *Service) joinSSOCommunities(ctx context.Context, tx pgx.Tx, p model.Profiles) error {
	cm, c := table.CommunityMemberships, table.Communities
	_, err := db.Exec(ctx, tx, cm.INSERT(cm.CommunityID, cm.ProfileID, cm.Role, cm.Status, cm.AssignedOn).
		QUERY(SELECT(c.ID, UUID(p.ID), String("member"), String("active"), TimestampzT(s.now())).FROM(c).
			WHERE(c.OrganizationID.EQ(UUID(p.OrganizationID)).AND(c.SsoAccess.IS_TRUE()))).
		ON_CONFLICT(cm.CommunityID, cm.ProfileID).DO_NOTHING())
	if err != nil {
		return fmt.Errorf("account: sso communities: %w", err)
	}
	return nil
}

// Federated is a sign-in an organization's identity provider vouched for:
// Email is the address the provider verified.
type Federated struct {
	OrganizationID uuid.UUID
	Email          string
	IP, UserAgent  string
}

// SignInFederated opens a session for the person of the organization whose
// profile has the verified address: the account joined to that profile, or,
// when nobody has an account of that address, a new one made from the
// profile and joined to it, as registration from an invitation does. The
// new account's password is random: its owner may set one with a password
// reset. The communities of the organization open to single sign-on take
// the person in.
func (s *Service) SignInFederated(ctx context.Context, in Federated) (Session, error) {
	key := auth.EmailKey(in.Email)
	if !auth.ValidEmail(strings.TrimSpace(in.Email)) {
		return Session{}, ErrSSONotMember
	}
	var sess Session
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		p, err := db.One[model.Profiles](ctx, tx, SELECT(table.Profiles.AllColumns).FROM(table.Profiles).
			WHERE(table.Profiles.OrganizationID.EQ(UUID(in.OrganizationID)).AND(table.Profiles.EmailKey.EQ(String(key)))).
			FOR(UPDATE()))
		if errors.Is(err, pgx.ErrNoRows) {
			return ErrSSONotMember
		}
		if err != nil {
			return fmt.Errorf("account: federated profile: %w", err)
		}
		var u model.Users
		if p.UserID != nil {
			u, err = db.One[model.Users](ctx, tx, SELECT(table.Users.AllColumns).FROM(table.Users).WHERE(table.Users.ID.EQ(UUID(*p.UserID))))
			if err != nil {
				return fmt.Errorf("account: federated user: %w", err)
			}
		} else {
			random, _ := auth.NewToken()
			hash, err := s.hasher.Hash(ctx, random)
			if err != nil {
				return err
			}
			u, err = s.insertUser(ctx, tx, p.Email, hash, Person{FirstName: &p.FirstName, LastName: &p.LastName})
			if errors.Is(err, ErrEmailTaken) {
				return ErrSSOAccountNotLinked
			}
			if err != nil {
				return err
			}
			if err := s.join(ctx, tx, u.ID, p.ID); err != nil {
				return err
			}
		}
		if auth.Role(u.Role) == auth.RoleSuper {
			return ErrSSONotAllowed
		}
		if err := s.joinSSOCommunities(ctx, tx, p); err != nil {
			return err
		}
		sess, err = s.createSession(ctx, tx, u, in.IP, in.UserAgent)
		return err
	})
	return sess, err
}
