package account

import (
	"context"
	"fmt"
	"net/url"

	"agora/internal/db"
	"agora/internal/db/gen/model"
	agoramail "agora/internal/mail"
	"agora/internal/membership"
)

// Invite issues an invitation to an invited profile, inside the caller's
// transaction, and mails the acceptance link. The link works once, until
// the invitation TTL passes; the token keeps the community or forum it
// leads into.
func (s *Service) Invite(ctx context.Context, q db.Querier, inv membership.Invitation) error {
	pid := inv.ProfileID
	token, err := s.issueToken(ctx, q, model.Tokens{
		Kind: "invitation", ProfileID: &pid, Email: inv.Email, ExpiresOn: s.now().Add(s.cfg.InvitationTTL),
		CommunityID: inv.Community, SeriesID: inv.Forum,
	})
	if err != nil {
		return err
	}
	link := s.baseURL + "/accept-invitation?token=" + url.QueryEscape(token)
	return s.mail.Send(ctx, agoramail.Message{
		To:      inv.Email,
		Subject: fmt.Sprintf("%s invited you to %s on Agora", inv.Inviter, inv.Place),
		Body: fmt.Sprintf("Hello %s,\n\n%s invited you to join %s on Agora, a members-only learning community.\n\n"+
			"Accept the invitation here:\n\n%s\n", inv.FirstName, inv.Inviter, inv.Place, link),
	})
}
