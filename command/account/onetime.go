package account

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/go-jet/jet/v2/qrm"
	"github.com/google/uuid"

	"agora/internal/auth"
	"agora/internal/db/gen/model"
	"agora/internal/db/gen/table"
	"agora/internal/onetime"
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

// lockToken reads a one-time token of one of kinds for update.
func (s *Service) lockToken(ctx context.Context, exec qrm.Queryable, token string, kinds ...string) (model.Tokens, error) {
	return onetime.Find(ctx, exec, token, true, s.now(), kinds...)
}

func (s *Service) markUsed(ctx context.Context, exec qrm.Executable, id uuid.UUID) error {
	_, err := table.Tokens.UPDATE(table.Tokens.UsedOn).SET(TimestampzT(s.now())).
		WHERE(table.Tokens.ID.EQ(UUID(id))).ExecContext(ctx, exec)
	return err
}
