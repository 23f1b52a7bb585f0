// Package delivery is the projection that takes notifications out of the
// app (spec 000 §7 "Notifications and personalization"; contract of issue
// 17): each new row of public.notifications is e-mailed or pushed to the
// member's browsers at once, as their settings say, and a scheduler beside
// it mails the daily and weekly digests and retries what failed.
//
// A notification is sent once per channel and browser: its delivery row
// (notification_deliveries, unique per notification, channel and
// subscription) is written in the transaction that sends it, so a replay of
// the stream, a rebuild or a second projector finds it and sends nothing.
// A failed sending keeps its row, with the error, and is retried by the
// scheduler with a growing delay; a push service answering 404 or 410
// drops the browser's subscription.
package delivery

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/auth"
	"agora/internal/mail"
	"agora/internal/webpush"
	"agora/projections"
	"agora/projections/change"
	qinsights "agora/query/insights"
)

var (
	_ projections.Handler   = (*Projection)(nil)
	_ projections.Scheduled = (*Projection)(nil)
)

// Fresh is how old a notification may be and still be sent at once: a
// rebuild, or the first start after an upgrade, reads every row again, and
// must not mail a member their history.
const Fresh = 24 * time.Hour

// MaxAttempts is how often a sending is tried before it is given up.
const MaxAttempts = 8

// Options configure the projection.
type Options struct {
	// Mail sends the e-mails (SMTP, or the dev mailbox).
	Mail mail.Sender
	// Push sends to browsers; nil when no VAPID key pair is configured.
	Push *webpush.Sender
	// BaseURL is where e-mailed and pushed links point (AGORA_PUBLIC_URL).
	BaseURL string
	// Insights reads a forum's figures for the insights digest; nil
	// leaves the insights digests out (no warehouse).
	Insights *qinsights.Queries
	// Now is the clock of the scheduler and of the sendings; tests set
	// it. Default time.Now.
	Now func() time.Time
	// Interval is how often the scheduler looks for due digests and
	// sendings to retry (a minute).
	Interval time.Duration
	Log      *slog.Logger
}

// Projection delivers notifications.
type Projection struct {
	db   *pgxpool.Pool
	opts Options
}

// New is the delivery projection over db.
func New(db *pgxpool.Pool, o Options) (*Projection, error) {
	if db == nil || o.Mail == nil || o.BaseURL == "" {
		return nil, errors.New("delivery.New: nil dependency")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Interval <= 0 {
		o.Interval = time.Minute
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return &Projection{db: db, opts: o}, nil
}

// Name is the projection's consumer group: "delivery".
func (p *Projection) Name() string { return "delivery" }

// Tables is the notifications table.
func (p *Projection) Tables() []string { return []string{"public.notifications"} }

// Apply sends a notification written (or read by a snapshot). Its
// deletion, an update, or a truncation sends nothing: a source deleted
// takes its notifications and their deliveries with it.
func (p *Projection) Apply(ctx context.Context, c change.Change) error {
	if c.Op != change.Create && c.Op != change.Read || c.After == nil {
		return nil
	}
	id, err := c.After.UUID("id")
	if err != nil {
		return projections.Permanent(fmt.Errorf("delivery: %w", err))
	}
	return p.Deliver(ctx, id)
}

// notification is a row of notifications with what sending it needs.
type notification struct {
	ID, UserID, SourceID          uuid.UUID
	Kind                          string
	PostID, SeriesID, CommunityID *uuid.UUID
	ChannelID                     *uuid.UUID
	Preview                       string
	CreatedOn                     time.Time
	Email, Author, Forum          string
	Online                        bool
	Settings                      settings
}

// Deliver sends the notification id as its recipient's settings say, each
// channel once. It reads the row from Postgres rather than from the
// change, so that what is sent is what is there now: a notification
// deleted since is not sent.
func (p *Projection) Deliver(ctx context.Context, id uuid.UUID) error {
	n, err := p.notification(ctx, id)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	if p.opts.Now().Sub(n.CreatedOn) > Fresh {
		return nil
	}
	s := n.Settings
	var email, push bool
	switch n.Kind {
	case "mention":
		email, push = s.EmailMentions, s.PushMentions
	case "message":
		email, push = s.EmailPrivateChats && !n.Online, s.PushPrivateChats
	case "comment", "reply":
		// Their e-mail is the digest's.
		push = s.PushComments
	}
	if email && n.Email != "" {
		if err := p.email(ctx, n); err != nil {
			return err
		}
	}
	if push && p.opts.Push != nil {
		if err := p.push(ctx, n); err != nil {
			return err
		}
	}
	return nil
}

// notification reads one notification with its recipient, author and
// forum, and whether the recipient is online.
func (p *Projection) notification(ctx context.Context, id uuid.UUID) (notification, error) {
	var n notification
	var data []byte
	err := p.db.QueryRow(ctx, `SELECT n.id, n.user_id, n.source_id, n.kind, n.post_id, n.series_id, n.community_id, n.channel_id,
			n.preview, n.created_on, u.email, coalesce(a.first_name || ' ' || a.last_name, ''), coalesce(s.name, ''),
			EXISTS (SELECT 1 FROM online_users o WHERE o.user_id = n.user_id AND o.nodes > 0),
			coalesce((SELECT up.data::text FROM user_personalization up WHERE up.user_id = n.user_id), '{}')
		FROM notifications n JOIN users u ON u.id = n.user_id
		LEFT JOIN users a ON a.id = n.author_id
		LEFT JOIN series s ON s.id = n.series_id
		WHERE n.id = $1`, id).Scan(&n.ID, &n.UserID, &n.SourceID, &n.Kind, &n.PostID, &n.SeriesID, &n.CommunityID, &n.ChannelID,
		&n.Preview, &n.CreatedOn, &n.Email, &n.Author, &n.Forum, &n.Online, &data)
	if err != nil {
		return n, err
	}
	n.Settings = readSettings(data)
	return n, nil
}

// postURL is the post's page with its comments open, for reason (comment
// or mention).
func (p *Projection) postURL(n notification, absolute bool) string {
	if n.Kind == "message" || n.PostID == nil || n.SeriesID == nil || n.CommunityID == nil {
		return p.link("/home", absolute)
	}
	reason := "comment"
	if n.Kind == "mention" {
		reason = "mention"
	}
	return p.link(fmt.Sprintf("/communities/%s/series/%s/posts/%s?reason=%s", n.CommunityID, n.SeriesID, n.PostID, reason), absolute)
}

func (p *Projection) link(path string, absolute bool) string {
	if absolute {
		return p.opts.BaseURL + path
	}
	return path
}

// author is who the notification names: "Someone" for an anonymous asker.
func (n notification) author() string {
	if n.Author == "" {
		return "Someone"
	}
	return n.Author
}

// claim writes the delivery row of (notification, channel, subscription)
// in tx, unless one exists: false means it was sent, or is being retried,
// already.
func claim(ctx context.Context, tx pgx.Tx, notification uuid.UUID, channel string, subscription *uuid.UUID, now time.Time) (uuid.UUID, bool, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return id, false, err
	}
	tag, err := tx.Exec(ctx, `INSERT INTO notification_deliveries (id, notification_id, channel, subscription_id, attempts, last_attempt_on)
		VALUES ($1, $2, $3, $4, 1, $5) ON CONFLICT DO NOTHING`, id, notification, channel, subscription, now)
	if err != nil {
		return id, false, fmt.Errorf("delivery: claim: %w", err)
	}
	return id, tag.RowsAffected() == 1, nil
}

// settle records the outcome of an attempt on the delivery row.
func settle(ctx context.Context, tx pgx.Tx, delivery uuid.UUID, sendErr error, now time.Time) error {
	var err error
	if sendErr == nil {
		_, err = tx.Exec(ctx, `UPDATE notification_deliveries SET sent_on = $2, last_error = NULL WHERE id = $1`, delivery, now)
	} else {
		msg := sendErr.Error()
		if len(msg) > 500 {
			msg = msg[:500]
		}
		_, err = tx.Exec(ctx, `UPDATE notification_deliveries SET last_error = $2 WHERE id = $1`, delivery, msg)
	}
	if err != nil {
		return fmt.Errorf("delivery: settle: %w", err)
	}
	return nil
}

// email mails n once, with an unsubscribe link for its setting. A private
// message is mailed once per conversation until the member has opened it:
// a later message of the same conversation waits for them there.
func (p *Projection) email(ctx context.Context, n notification) error {
	return pgx.BeginFunc(ctx, p.db, func(tx pgx.Tx) error {
		now := p.opts.Now()
		if n.Kind == "message" && n.ChannelID != nil {
			var pending bool
			err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM notification_deliveries d JOIN notifications o ON o.id = d.notification_id
				LEFT JOIN channel_members cm ON cm.channel_id = o.channel_id AND cm.user_id = o.user_id
				WHERE d.channel = 'email' AND o.user_id = $1 AND o.kind = 'message' AND o.channel_id = $2 AND o.id <> $3
					AND (cm.last_seen_on IS NULL OR o.created_on > cm.last_seen_on))`, n.UserID, *n.ChannelID, n.ID).Scan(&pending)
			if err != nil {
				return fmt.Errorf("delivery: %w", err)
			}
			if pending {
				return nil
			}
		}
		id, ok, err := claim(ctx, tx, n.ID, "email", nil, now)
		if err != nil || !ok {
			return err
		}
		m, err := p.message(ctx, tx, n)
		if err != nil {
			return err
		}
		return settle(ctx, tx, id, p.opts.Mail.Send(ctx, m), now)
	})
}

// message is the e-mail of n.
func (p *Projection) message(ctx context.Context, tx pgx.Tx, n notification) (mail.Message, error) {
	setting, subject, intro := "notifications.email.mentions", n.author()+" mentioned you", n.author()+" mentioned you in "+n.Forum+":"
	if n.Kind == "message" {
		setting, subject, intro = "notifications.email.privateChats", n.author()+" sent you a message", n.author()+" sent you a private message:"
	}
	unsubscribe, err := unsubscribeLink(ctx, tx, p.opts.BaseURL, n.UserID, setting)
	if err != nil {
		return mail.Message{}, err
	}
	body := fmt.Sprintf("%s\r\n\r\n    %s\r\n\r\nOpen it: %s\r\n\r\n-- \r\nTo stop these e-mails: %s\r\nOr change your notification settings: %s\r\n",
		intro, n.Preview, p.postURL(n, true), unsubscribe, p.link("/profile", true))
	return mail.Message{To: n.Email, Subject: subject, Body: body, ListUnsubscribe: unsubscribe}, nil
}

// unsubscribeLink makes the link that turns setting off for user: a
// random token whose hash is kept, like a session's.
func unsubscribeLink(ctx context.Context, tx pgx.Tx, base string, user uuid.UUID, setting string) (string, error) {
	token, hash := auth.NewToken()
	_, err := tx.Exec(ctx, `INSERT INTO unsubscribe_tokens (token_hash, user_id, setting) VALUES ($1, $2, $3)`, hash, user, setting)
	if err != nil {
		return "", fmt.Errorf("delivery: unsubscribe link: %w", err)
	}
	return base + "/api/notifications/unsubscribe?token=" + url.QueryEscape(token), nil
}

// subscription is a browser to push to.
type subscription struct {
	ID uuid.UUID
	webpush.Subscription
}

// push sends n to each of the member's browsers once. A mention that is
// also a comment (one source, two notifications) is pushed once.
func (p *Projection) push(ctx context.Context, n notification) error {
	rows, err := p.db.Query(ctx, `SELECT ps.id, ps.endpoint, ps.p256dh, ps.auth FROM push_subscriptions ps
		WHERE ps.user_id = $1 AND NOT EXISTS (SELECT 1 FROM notification_deliveries d JOIN notifications o ON o.id = d.notification_id
			WHERE d.subscription_id = ps.id AND o.user_id = $1 AND o.source_id = $2 AND o.id <> $3)
		ORDER BY ps.id`, n.UserID, n.SourceID, n.ID)
	if err != nil {
		return fmt.Errorf("delivery: subscriptions: %w", err)
	}
	subs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (subscription, error) {
		var s subscription
		return s, r.Scan(&s.ID, &s.Endpoint, &s.P256dh, &s.Auth)
	})
	if err != nil {
		return fmt.Errorf("delivery: subscriptions: %w", err)
	}
	m := p.pushMessage(n)
	for _, s := range subs {
		err := pgx.BeginFunc(ctx, p.db, func(tx pgx.Tx) error {
			now := p.opts.Now()
			id, ok, err := claim(ctx, tx, n.ID, "push", &s.ID, now)
			if err != nil || !ok {
				return err
			}
			return p.sendPush(ctx, tx, id, s, m, now)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// sendPush posts m to the browser s and settles the delivery; a push
// service that no longer knows the browser drops its subscription (and
// with it the delivery row).
func (p *Projection) sendPush(ctx context.Context, tx pgx.Tx, delivery uuid.UUID, s subscription, m webpush.Message, now time.Time) error {
	err := p.opts.Push.Send(ctx, s.Subscription, m)
	if errors.Is(err, webpush.ErrGone) {
		p.opts.Log.Info("push subscription gone; dropped", "subscription", s.ID)
		if _, err := tx.Exec(ctx, `DELETE FROM push_subscriptions WHERE id = $1`, s.ID); err != nil {
			return fmt.Errorf("delivery: drop subscription: %w", err)
		}
		return nil
	}
	if err == nil {
		if _, err := tx.Exec(ctx, `UPDATE push_subscriptions SET last_used_on = $2 WHERE id = $1`, s.ID, now); err != nil {
			return fmt.Errorf("delivery: %w", err)
		}
	}
	return settle(ctx, tx, delivery, err, now)
}

// pushMessage is what the browser shows for n.
func (p *Projection) pushMessage(n notification) webpush.Message {
	title := n.author()
	switch n.Kind {
	case "mention":
		title += " mentioned you"
	case "comment":
		title += " commented on your post"
	case "reply":
		title += " replied to your comment"
	}
	if n.Forum != "" {
		title += " in " + n.Forum
	}
	return webpush.Message{Title: title, Body: n.Preview, URL: p.postURL(n, false)}
}
