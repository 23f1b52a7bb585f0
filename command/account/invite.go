package account

import (
	"context"
	"fmt"
	"net/url"

	"github.com/google/uuid"

	"agora/internal/db"
	"agora/internal/db/gen/model"
	agoramail "agora/internal/mail"
)

// Invite issues an invitation to an invited profile, inside the caller's
// transaction, and mails the acceptance link. The link works once, until
// the invitation TTL passes.
func (s *Service) Invite(ctx context.Context, q db.Querier, profileID uuid.UUID, email, firstName, inviter, orgName string) error {
	pid := profileID
	token, err := s.issueToken(ctx, q, model.Tokens{
		Kind: "invitation", ProfileID: &pid, Email: email, ExpiresOn: s.now().Add(s.cfg.InvitationTTL),
	})
	if err != nil {
		return err
	}
	link := s.baseURL + "/accept-invitation?token=" + url.QueryEscape(token)
	return s.mail.Send(ctx, agoramail.Message{
		To:      email,
		Subject: fmt.Sprintf("%s invited you to %s on Agora", inviter, orgName),
		Body: fmt.Sprintf("Hello %s,\n\n%s invited you to join %s on Agora, a members-only learning community.\n\n"+
			"Accept the invitation here:\n\n%s\n", firstName, inviter, orgName, link),
	})
}
