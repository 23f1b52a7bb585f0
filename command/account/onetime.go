package account

import (
	"context"
	"errors"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/go-jet/jet/v2/qrm"
	"github.com/google/uuid"

	"agora/internal/auth"
	"agora/internal/db/gen/model"
	"agora/internal/db/gen/table"
)

// issueToken stores a new one-time token of kind and returns it.
func (s *Service) issueToken(ctx context.Context, exec qrm.Executable, row model.Tokens) (string, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return "", err
	}
	token, hash := auth.NewToken()
	row.ID, row.TokenHash, row.CreatedOn = id, hash, s.now()
	if _, err := table.Tokens.INSERT(table.Tokens.AllColumns.Except(table.Tokens.UsedOn)).MODEL(row).ExecContext(ctx, exec); err != nil {
		return "", fmt.Errorf("account: issue token: %w", err)
	}
	return token, nil
}

// lockToken reads a one-time token of one of kinds for update. Unknown or
// used tokens are auth.ErrOneTimeTokenInvalid, expired ones auth.ErrOneTimeTokenExpired.
func (s *Service) lockToken(ctx context.Context, exec qrm.Queryable, token string, kinds ...string) (model.Tokens, error) {
	var row model.Tokens
	ks := make([]Expression, len(kinds))
	for i, k := range kinds {
		ks[i] = String(k)
	}
	err := SELECT(table.Tokens.AllColumns).FROM(table.Tokens).
		WHERE(table.Tokens.TokenHash.EQ(Bytea(auth.HashToken(token))).AND(table.Tokens.Kind.IN(ks...))).
		FOR(UPDATE()).QueryContext(ctx, exec, &row)
	if errors.Is(err, qrm.ErrNoRows) {
		return row, auth.ErrOneTimeTokenInvalid
	}
	if err != nil {
		return row, fmt.Errorf("account: token: %w", err)
	}
	if row.UsedOn != nil {
		return row, auth.ErrOneTimeTokenInvalid
	}
	if !s.now().Before(row.ExpiresOn) {
		return row, auth.ErrOneTimeTokenExpired
	}
	return row, nil
}

func (s *Service) markUsed(ctx context.Context, exec qrm.Executable, id uuid.UUID) error {
	_, err := table.Tokens.UPDATE(table.Tokens.UsedOn).SET(TimestampzT(s.now())).
		WHERE(table.Tokens.ID.EQ(UUID(id))).ExecContext(ctx, exec)
	return err
}
