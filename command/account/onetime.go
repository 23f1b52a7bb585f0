package account

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/onetime"
)

// issueToken stores a new one-time token of kind and returns it.
func (s *Service) issueToken(ctx context.Context, q db.Querier, row model.Tokens) (string, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return "", err
	}
	token, hash := auth.NewToken()
	row.ID, row.TokenHash, row.CreatedOn = id, hash, s.now()
	if _, err := db.Exec(ctx, q, table.Tokens.INSERT(table.Tokens.AllColumns.Except(table.Tokens.UsedOn)).MODEL(row)); err != nil {
		return "", fmt.Errorf("account: issue token: %w", err)
	}
	return token, nil
}

// lockToken reads a one-time token of one of kinds for update.
func (s *Service) lockToken(ctx context.Context, q db.Querier, token string, kinds ...string) (model.Tokens, error) {
	return onetime.Find(ctx, q, token, true, s.now(), kinds...)
}

func (s *Service) markUsed(ctx context.Context, q db.Querier, id uuid.UUID) error {
	_, err := db.Exec(ctx, q, table.Tokens.UPDATE(table.Tokens.UsedOn).SET(TimestampzT(s.now())).
		WHERE(table.Tokens.ID.EQ(UUID(id))))
	return err
}
