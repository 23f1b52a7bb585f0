package account

import (
	"context"
	"errors"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
)

// HubTicketTTL is how long a hub ticket may wait to be used: the browser
// asks for one right before it opens the WebSocket, so a few seconds do;
// the margin is for a slow network.
const HubTicketTTL = 30 * time.Second

// HubTicket opens the live-event WebSocket once (POST /api/hub/tickets).
type HubTicket struct {
	Ticket    string
	ExpiresOn time.Time
}

// IssueHubTicket gives the caller's session a ticket for GET /api/hub?ticket=,
// so that the session's token never rides in a URL (access logs keep
// URLs). The session's expired tickets are deleted on the way: one is made
// for every connection, and none is any use once expired.
func (s *Service) IssueHubTicket(ctx context.Context, userID, sessionID uuid.UUID) (HubTicket, error) {
	now := s.now()
	var t HubTicket
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		if _, err := db.Exec(ctx, tx, table.Tokens.DELETE().WHERE(table.Tokens.SessionID.EQ(UUID(sessionID)).
			AND(table.Tokens.Kind.EQ(String("hubTicket"))).
			AND(table.Tokens.ExpiresOn.LT(TimestampzT(now))))); err != nil {
			return err
		}
		t.ExpiresOn = now.Add(HubTicketTTL)
		var err error
		t.Ticket, err = s.issueToken(ctx, tx, model.Tokens{
			Kind: "hubTicket", UserID: &userID, SessionID: &sessionID, ExpiresOn: t.ExpiresOn,
		})
		return err
	})
	if err != nil {
		return HubTicket{}, fmt.Errorf("account: hub ticket: %w", err)
	}
	return t, nil
}

// UseHubTicket uses a ticket up and returns the session it was issued to,
// whose validity the caller checks as it checks a token's (a ticket of a
// signed-out session is worth no more than the session). An unknown, used
// or expired ticket is ErrTokenInvalid: a ticket is not a link the member
// follows, so it has no "expired" page of its own.
func (s *Service) UseHubTicket(ctx context.Context, ticket string) (uuid.UUID, error) {
	if ticket == "" || len(ticket) > 256 {
		return uuid.Nil, apperr.ErrTokenInvalid
	}
	var session uuid.UUID
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		tok, err := s.lockToken(ctx, tx, ticket, "hubTicket")
		if errors.Is(err, auth.ErrOneTimeTokenInvalid) || errors.Is(err, auth.ErrOneTimeTokenExpired) || (err == nil && tok.SessionID == nil) {
			return apperr.ErrTokenInvalid
		}
		if err != nil {
			return err
		}
		session = *tok.SessionID
		return s.markUsed(ctx, tx, tok.ID)
	})
	return session, err
}
