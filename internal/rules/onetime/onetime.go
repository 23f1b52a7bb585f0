// Package onetime reads one-time tokens (password resets, invitations,
// confirmations, access tokens) for both sides: the read side checks them,
// the write side locks and uses them up.
package onetime

import (
	"context"
	"errors"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
)

// Find reads the token of one of kinds, locking its row when lock is set.
// Unknown and used tokens are auth.ErrOneTimeTokenInvalid, expired ones
// auth.ErrOneTimeTokenExpired; the row found is returned with those errors
// so that callers can tell which kind of token failed.
func Find(ctx context.Context, q db.Querier, token string, lock bool, now time.Time, kinds ...string) (model.Tokens, error) {
	ks := make([]Expression, len(kinds))
	for i, k := range kinds {
		ks[i] = String(k)
	}
	stmt := SELECT(table.Tokens.AllColumns).FROM(table.Tokens).
		WHERE(table.Tokens.TokenHash.EQ(Bytea(auth.HashToken(token))).AND(table.Tokens.Kind.IN(ks...)))
	if lock {
		stmt = stmt.FOR(UPDATE())
	}
	row, err := db.One[model.Tokens](ctx, q, stmt)
	if errors.Is(err, pgx.ErrNoRows) {
		return row, auth.ErrOneTimeTokenInvalid
	}
	if err != nil {
		return row, fmt.Errorf("onetime: %w", err)
	}
	if row.UsedOn != nil {
		return row, auth.ErrOneTimeTokenInvalid
	}
	if !now.Before(row.ExpiresOn) {
		return row, auth.ErrOneTimeTokenExpired
	}
	return row, nil
}
