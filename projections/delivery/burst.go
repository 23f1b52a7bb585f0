package delivery

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	pg "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/adapters/mail"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/notice"
)

// burstKinds are the notifications mailed as they come, but at most once
// a burst (AGORA_NOTIFICATION_BURST) per member (issue 31, G3; notice's
// Burst): twelve posts mentioning someone within a second, or four open
// Meet Ups scheduled in their forum, would otherwise be twelve or four
// mails. The first is mailed at once; those that follow within the burst
// are held and mailed together, as one, when it ends.
var burstKinds = notice.Names(func(k notice.Kind) bool { return k.Burst })

// lockMember serializes the burst decisions of one member's mails across
// projectors.
func lockMember(ctx context.Context, tx pgx.Tx, user uuid.UUID) error {
	_, err := db.Exec(ctx, tx, pg.SELECT(pg.Func("pg_advisory_xact_lock", pg.Func("hashtextextended", pg.String("delivery-burst:"+user.String()), pg.Int(0)))))
	if err != nil {
		return fmt.Errorf("delivery: burst: %w", err)
	}
	return nil
}

// pushGroup is the group of kind (notice's PushGroup), nil for a kind
// pushed every time: the first push of a group holds back the group's
// others within the burst (AGORA_NOTIFICATION_BURST), which would only
// repeat its nudge (twelve comments in a second are one push). A private
// message's group is its conversation, so that a burst in one chat is one
// push and another chat's message still pushes.
func pushGroup(kind string) []string {
	g := notice.Of(kind).PushGroup
	if g == "" {
		return nil
	}
	return notice.Names(func(k notice.Kind) bool { return k.PushGroup == g })
}

// inBurst reports whether n's recipient was pushed a notification of n's
// group (of its conversation, for a message) within the last burst.
func (p *Projection) inBurst(ctx context.Context, q db.Querier, n notification) (bool, error) {
	group := pushGroup(n.Kind)
	if group == nil {
		return false, nil
	}
	d, o := table.NotificationDeliveries, table.Notifications
	where := o.UserID.EQ(pg.UUID(n.UserID)).AND(o.Kind.IN(db.Strings(group)...)).AND(d.Channel.EQ(pg.String("push"))).
		AND(d.SentOn.GT(pg.TimestampzT(p.opts.Now().Add(-p.opts.Limits.NotificationBurst))))
	if notice.Of(n.Kind).About == notice.Conversation && n.ChannelID != nil {
		where = where.AND(o.ChannelID.EQ(pg.UUID(*n.ChannelID)))
	}
	var recent bool
	err := db.QueryRow(ctx, q, pg.SELECT(pg.EXISTS(pg.SELECT(d.ID).FROM(d.INNER_JOIN(o, o.ID.EQ(d.NotificationID))).WHERE(where)))).Scan(&recent)
	if err != nil {
		return false, fmt.Errorf("delivery: burst: %w", err)
	}
	return recent, nil
}

// burstMail decides, under the member's lock, how the mail of n (of
// burstKinds) goes: held until the end of the member's burst (held), at
// once (send, no held), or not at all (its author's mails passed
// AGORA_MENTION_MAILS_PER_AUTHOR_PER_HOUR: a mention then waits for the
// member's digest, and the notification stays in the app).
func (p *Projection) burstMail(ctx context.Context, tx pgx.Tx, n notification, now time.Time) (held *time.Time, send bool, err error) {
	if err := lockMember(ctx, tx, n.UserID); err != nil {
		return nil, false, err
	}
	d, o := table.NotificationDeliveries, table.Notifications
	var pending, last *time.Time
	err = db.QueryRow(ctx, tx, pg.SELECT(
		pg.MIN(d.HeldUntil).AS("pending"),
		pg.MAX(d.SentOn).AS("last")).
		FROM(d.INNER_JOIN(o, o.ID.EQ(d.NotificationID))).
		WHERE(o.UserID.EQ(pg.UUID(n.UserID)).AND(o.Kind.IN(db.Strings(burstKinds)...)).AND(d.Channel.EQ(pg.String("email"))).
			AND(d.HeldUntil.IS_NOT_NULL().AND(d.SentOn.IS_NULL()).OR(d.SentOn.GT(pg.TimestampzT(now.Add(-p.opts.Limits.NotificationBurst))))))).
		Scan(&pending, &last)
	if err != nil {
		return nil, false, fmt.Errorf("delivery: burst: %w", err)
	}
	switch {
	case pending != nil:
		return pending, true, nil
	case last != nil:
		end := last.Add(p.opts.Limits.NotificationBurst)
		return &end, true, nil
	}
	if n.AuthorID == nil {
		return nil, true, nil
	}
	var caused int
	err = db.QueryRow(ctx, tx, pg.SELECT(pg.COUNT(d.ID)).FROM(d.INNER_JOIN(o, o.ID.EQ(d.NotificationID))).
		WHERE(o.AuthorID.EQ(pg.UUID(*n.AuthorID)).AND(o.Kind.IN(db.Strings(burstKinds)...)).AND(d.Channel.EQ(pg.String("email"))).
			AND(d.SentOn.GT(pg.TimestampzT(now.Add(-time.Hour)))))).Scan(&caused)
	if err != nil {
		return nil, false, fmt.Errorf("delivery: burst: %w", err)
	}
	return nil, caused < p.opts.Limits.MentionMailsPerAuthorPerHour, nil
}

// claimHeld writes the e-mail delivery row of notification, held until
// the end of its member's burst, unless one exists.
func claimHeld(ctx context.Context, tx pgx.Tx, notification uuid.UUID, until time.Time) (bool, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return false, err
	}
	d := table.NotificationDeliveries
	tag, err := db.Exec(ctx, tx, d.INSERT(d.ID, d.NotificationID, d.Channel, d.Attempts, d.HeldUntil).
		VALUES(pg.UUID(id), pg.UUID(notification), pg.String("email"), pg.Int(0), pg.TimestampzT(until)).
		ON_CONFLICT().DO_NOTHING())
	if err != nil {
		return false, fmt.Errorf("delivery: hold: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// Bursts mails, as one mail each, the held notifications of the members
// whose burst has ended.
func (p *Projection) Bursts(ctx context.Context) error {
	d, o := table.NotificationDeliveries, table.Notifications
	users, err := db.Values[uuid.UUID](ctx, p.db, pg.SELECT(o.UserID).DISTINCT().FROM(d.INNER_JOIN(o, o.ID.EQ(d.NotificationID))).
		WHERE(d.HeldUntil.LT_EQ(pg.TimestampzT(p.opts.Now())).AND(d.SentOn.IS_NULL())).LIMIT(500))
	if err != nil {
		return fmt.Errorf("delivery: bursts: %w", err)
	}
	var errs []error
	for _, u := range users {
		errs = append(errs, p.burstDigest(ctx, u))
	}
	return errors.Join(errs...)
}

// burstDigest mails user's held notifications whose burst has ended, those
// they may still read, in one mail, and settles them all with its outcome.
func (p *Projection) burstDigest(ctx context.Context, user uuid.UUID) error {
	return db.InTx(ctx, p.db, func(tx pgx.Tx) error {
		if err := lockMember(ctx, tx, user); err != nil {
			return err
		}
		now := p.opts.Now()
		d, o := table.NotificationDeliveries, table.Notifications
		type held struct{ Delivery, Notification uuid.UUID }
		rows, err := db.All[held](ctx, tx, pg.SELECT(d.ID.AS("delivery"), d.NotificationID.AS("notification")).
			FROM(d.INNER_JOIN(o, o.ID.EQ(d.NotificationID))).
			WHERE(o.UserID.EQ(pg.UUID(user)).AND(d.HeldUntil.LT_EQ(pg.TimestampzT(now))).AND(d.SentOn.IS_NULL())).
			ORDER_BY(o.CreatedOn, o.ID))
		if err != nil || len(rows) == 0 {
			return err
		}
		var items []notification
		for _, h := range rows {
			n, err := p.notification(ctx, h.Notification)
			if err != nil {
				return err
			}
			if n.SeriesID != nil {
				if ok, err := mayRead(ctx, tx, n.UserID, n.Role, *n.SeriesID); err != nil {
					return err
				} else if !ok {
					continue // they have left the forum since
				}
			}
			items = append(items, n)
		}
		ids := make([]pg.Expression, len(rows))
		for i, h := range rows {
			ids[i] = pg.UUID(h.Delivery)
		}
		var sendErr error
		if len(items) > 0 && items[0].Settings.Switch(notice.Of(items[0].Kind).Email) {
			m, err := p.burstMessage(ctx, tx, items)
			if err != nil {
				return err
			}
			sendErr = p.opts.Mail.Send(ctx, m)
		}
		// Sent, or nothing left to send: the burst is over either way. A
		// failed sending is retried by Retry, one mail a notification.
		stmt := d.UPDATE(d.HeldUntil, d.SentOn, d.Attempts, d.LastAttemptOn).SET(pg.NULL, pg.TimestampzT(now), pg.Int(1), pg.TimestampzT(now))
		if sendErr != nil {
			msg := sendErr.Error()
			if len(msg) > 500 {
				msg = msg[:500]
			}
			stmt = d.UPDATE(d.HeldUntil, d.Attempts, d.LastAttemptOn, d.LastError).SET(pg.NULL, pg.Int(1), pg.TimestampzT(now), pg.String(msg))
		}
		if _, err := db.Exec(ctx, tx, stmt.WHERE(d.ID.IN(ids...))); err != nil {
			return fmt.Errorf("delivery: burst: %w", err)
		}
		return nil
	})
}

// burstMessage is the one mail of a member's held notifications.
func (p *Projection) burstMessage(ctx context.Context, tx pgx.Tx, items []notification) (mail.Message, error) {
	// The burst's kinds share one setting (notice's tests), the first's.
	unsubscribe, err := unsubscribeLink(ctx, tx, p.opts.BaseURL, items[0].UserID, notice.Of(items[0].Kind).Email)
	if err != nil {
		return mail.Message{}, err
	}
	var b strings.Builder
	b.WriteString("Since the last e-mail:\r\n")
	for _, n := range items {
		fmt.Fprintf(&b, "\r\n* %s:\r\n%s    %s\r\n", notice.Headline([]string{n.Kind}, n.who()), quote(n.Preview), p.postURL(n, true))
	}
	fmt.Fprintf(&b, "\r\n-- \r\nTo stop these e-mails: %s\r\nOr change your notification settings: %s/profile\r\n", unsubscribe, p.opts.BaseURL)
	subject := fmt.Sprintf("%d new mentions and Meet Ups on Agora", len(items))
	if len(items) == 1 {
		subject = notice.Headline([]string{items[0].Kind}, items[0].who())
	}
	return mail.Message{To: items[0].Email, Subject: subject, Body: b.String(), ListUnsubscribe: unsubscribe}, nil
}

// quote writes a member's text into a mail as a quotation (issue 31, G5):
// each of its lines behind "    > ", so that no line of it can pass for
// the mail's own (a signature's "-- ", a footer, an unsubscribe line); its
// control and bidirectional formatting characters dropped, so that it
// cannot reorder or break the lines around it; and each link in it written
// as "[link]", so that a member cannot put a link in a mail that the
// server did not write (the mail's own links open the post, where the
// member's link is shown with its address).
func quote(text string) string {
	text = strings.Map(func(r rune) rune {
		if r == '\n' {
			return r
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return -1
		}
		return r
	}, strings.ReplaceAll(text, "\r\n", "\n"))
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		words := strings.Fields(line)
		for i, w := range words {
			if linkLike(w) {
				words[i] = "[link]"
			}
		}
		b.WriteString("    > " + strings.Join(words, " ") + "\r\n")
	}
	return b.String()
}

// linkLike reports whether a word of a member's text is one a mail client
// would make a link of: a URL of any scheme, a www. address, a mailto:.
func linkLike(w string) bool {
	l := strings.ToLower(w)
	return strings.Contains(l, "://") || strings.Contains(l, "www.") || strings.Contains(l, "mailto:")
}
