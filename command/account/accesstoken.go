package account

import (
	"context"
	"errors"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
)

// ErrAccessTokenInvalid is an access link that is unknown, used, expired or
// not a grant (spec 000 §2.1's accessToken.invalid).
var ErrAccessTokenInvalid = apperr.New(apperr.NotFound, "accessTokenInvalid", "this access link is not valid, was used, or has expired")

// RedeemAccessToken is POST /tokens/{token}/redeem, which the web route
// /tokens/{accessToken}/{eventName} calls for a signed-in person.
//
// What an access token is here: a one-time token of kind 'access' that
// grants an organization's profile (with its community and forum
// memberships) to the account of the address it was sent to. It is the
// link form of an invitation for someone who already has an account (an
// invitation's own link leads to registration): the spec's route sends a
// guest to sign in first and then redeems the token for the signed-in
// person, which only makes sense for a grant to an existing account, not
// for a sign-in link. Bound to the address, a forwarded link grants
// nothing to whoever holds it; single use and expiring like every one-time
// token. The eventName segment names what the link was sent for and is not
// read by the server.
func (s *Service) RedeemAccessToken(ctx context.Context, caller auth.Caller, token string) (uuid.UUID, error) {
	if token == "" || len(token) > 256 {
		return uuid.Nil, ErrAccessTokenInvalid
	}
	var profileID uuid.UUID
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		u, err := db.One[model.Users](ctx, tx, SELECT(table.Users.AllColumns).FROM(table.Users).WHERE(table.Users.ID.EQ(UUID(caller.UserID))))
		if errors.Is(err, pgx.ErrNoRows) {
			return apperr.ErrAuthRequired
		}
		if err != nil {
			return err
		}
		profileID, err = s.joinByToken(ctx, tx, u, token, "access")
		return err
	})
	return profileID, err
}
