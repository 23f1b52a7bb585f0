package account

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	agoramail "agora/internal/adapters/mail"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/membership"
)

// invitationDay is the window of the per-actor limit
// (AGORA_INVITATIONS_PER_ACTOR_PER_DAY).
const invitationDay = 24 * time.Hour

// Invite issues invitations to invited profiles, inside the caller's
// transaction, in the name of actor, and mails each its acceptance link.
// A link works once, until the invitation TTL passes; its token keeps the
// community or forum it leads into.
//
// The mail limits hold here, the one place invitations are mailed: the
// same invitation (a profile, its address, the community or forum it leads
// into) mailed within AGORA_INVITATION_RESEND_AFTER is not mailed again
// (its first link still works) and is counted in the answer as already
// invited; and when the
// mails left would take the actor past AGORA_INVITATIONS_PER_ACTOR_PER_DAY,
// nothing is sent and the call is 429 tooManyRequests. The actor's
// advisory lock and the profiles' row locks make concurrent calls count
// one after the other, on every API node.
func (s *Service) Invite(ctx context.Context, q db.Querier, actor uuid.UUID, invs []membership.Invitation) (already int, err error) {
	if len(invs) == 0 {
		return 0, nil
	}
	im, p := table.InvitationMails, table.Profiles
	if _, err := db.Exec(ctx, q, SELECT(Func("pg_advisory_xact_lock", Func("hashtextextended", String("invitations:"+actor.String()), Int(0))))); err != nil {
		return 0, fmt.Errorf("account: invite: %w", err)
	}
	ids := make([]uuid.UUID, len(invs))
	for i, inv := range invs {
		ids[i] = inv.ProfileID
	}
	if _, err := db.Exec(ctx, q, SELECT(p.ID).FROM(p).WHERE(db.Any(p.ID, ids)).ORDER_BY(p.ID).FOR(UPDATE())); err != nil {
		return 0, fmt.Errorf("account: invite: %w", err)
	}
	now := s.now()
	type mailed struct {
		ProfileID   uuid.UUID
		Recipient   string
		CommunityID *uuid.UUID
		SeriesID    *uuid.UUID
	}
	recent, err := db.All[mailed](ctx, q, SELECT(im.ProfileID.AS("profile_id"), im.Recipient.AS("recipient"),
		im.CommunityID.AS("community_id"), im.SeriesID.AS("series_id")).FROM(im).
		WHERE(db.Any(im.ProfileID, ids).AND(im.SentOn.GT(TimestampzT(now.Add(-s.limits.InvitationResendAfter))))))
	if err != nil {
		return 0, fmt.Errorf("account: invite: %w", err)
	}
	var send []membership.Invitation
	for _, inv := range invs {
		if slices.ContainsFunc(recent, func(m mailed) bool {
			return m.ProfileID == inv.ProfileID && m.Recipient == auth.EmailKey(inv.Email) && same(m.CommunityID, inv.Community) && same(m.SeriesID, inv.Forum)
		}) {
			already++
			continue
		}
		send = append(send, inv)
	}
	if len(send) == 0 {
		return already, nil
	}
	day, err := db.Values[time.Time](ctx, q, SELECT(im.SentOn).FROM(im).
		WHERE(im.ActorID.EQ(UUID(actor)).AND(im.SentOn.GT(TimestampzT(now.Add(-invitationDay))))).ORDER_BY(im.SentOn))
	if err != nil {
		return 0, fmt.Errorf("account: invite: %w", err)
	}
	if over := len(day) + len(send) - s.limits.InvitationsPerActorPerDay; over > 0 {
		// The call may go through once enough of the day's mails are over
		// a day old; one that asks for more than a day's allowance never
		// will, and is told to come back in a day.
		retry := invitationDay
		if over <= len(day) {
			retry = day[over-1].Add(invitationDay).Sub(now)
		}
		return 0, tooMany(retry)
	}
	for _, inv := range send {
		if err := s.invite(ctx, q, actor, inv, now); err != nil {
			return 0, err
		}
	}
	return already, nil
}

// invite issues and records one invitation, then mails it.
func (s *Service) invite(ctx context.Context, q db.Querier, actor uuid.UUID, inv membership.Invitation, now time.Time) error {
	pid := inv.ProfileID
	token, err := s.issueToken(ctx, q, model.Tokens{
		Kind: "invitation", ProfileID: &pid, Email: inv.Email, ExpiresOn: now.Add(s.cfg.InvitationTTL),
		CommunityID: inv.Community, SeriesID: inv.Forum,
	})
	if err != nil {
		return err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return err
	}
	im := table.InvitationMails
	if _, err := db.Exec(ctx, q, im.INSERT(im.ID, im.ActorID, im.ProfileID, im.Recipient, im.CommunityID, im.SeriesID, im.SentOn).
		VALUES(UUID(id), UUID(actor), UUID(pid), String(auth.EmailKey(inv.Email)), uuidOrNull(inv.Community), uuidOrNull(inv.Forum), TimestampzT(now))); err != nil {
		return fmt.Errorf("account: invite: %w", err)
	}
	link := s.baseURL + "/accept-invitation?token=" + url.QueryEscape(token)
	return s.mail.Send(ctx, agoramail.Message{
		To:      inv.Email,
		Subject: fmt.Sprintf("%s invited you to %s on Agora", inv.Inviter, inv.Place),
		Body: fmt.Sprintf("Hello %s,\n\n%s invited you to join %s on Agora, a members-only learning community.\n\n"+
			"Accept the invitation here:\n\n%s\n", inv.FirstName, inv.Inviter, inv.Place, link),
	})
}

// same reports whether two optional ids are both absent or equal.
func same(a, b *uuid.UUID) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

func uuidOrNull(id *uuid.UUID) Expression {
	if id == nil {
		return NULL
	}
	return UUID(*id)
}
