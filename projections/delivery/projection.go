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

	pg "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/adapters/mail"
	"agora/internal/adapters/webpush"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/config"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
	"agora/internal/rules/notice"
	"agora/internal/rules/personalization"
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
	// Limits bound the mentions' and Meet Ups' mails and pushes per
	// member and per author (burst.go); zero values are the defaults.
	Limits config.MailLimits
	Log    *slog.Logger
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
	d := config.Default().MailLimits
	if o.Limits.NotificationBurst <= 0 {
		o.Limits.NotificationBurst = d.NotificationBurst
	}
	if o.Limits.MentionMailsPerAuthorPerHour <= 0 {
		o.Limits.MentionMailsPerAuthorPerHour = d.MentionMailsPerAuthorPerHour
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
	AuthorID                      *uuid.UUID
	Kind                          string
	PostID, SeriesID, CommunityID *uuid.UUID
	ChannelID                     *uuid.UUID
	Preview                       string
	CreatedOn                     time.Time
	Email, Role, Author, Forum    string
	// Community is the community's name (for community-join).
	Community string
	Online    bool
	Settings  settings
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
	if n.SeriesID != nil {
		// One who has left the forum since is told nothing of it.
		ok, err := mayRead(ctx, p.db, n.UserID, n.Role, *n.SeriesID)
		if err != nil || !ok {
			return err
		}
	}
	// The kind's settings say the channels (internal/rules/notice); a
	// private message is not mailed to one who is online, whose chat
	// shows it.
	k, s := notice.Of(n.Kind), n.Settings
	email := s.Switch(k.Email) && !(k.About == notice.Conversation && n.Online)
	push := s.Switch(k.Push)
	if email && n.Email != "" {
		if err := p.email(ctx, n); err != nil {
			return err
		}
	}
	if push && p.opts.Push != nil {
		// One push a burst: the ones after it would only repeat the nudge.
		if recent, err := p.inBurst(ctx, p.db, n); err != nil || recent {
			return err
		}
		if err := p.push(ctx, n); err != nil {
			return err
		}
	}
	return nil
}

// notification reads one notification with its recipient, author and
// forum, and whether the recipient is online.
func (p *Projection) notification(ctx context.Context, id uuid.UUID) (notification, error) {
	n, u, s, up, o, c := table.Notifications, table.Users, table.Series, table.UserPersonalization, table.OnlineUsers, table.Communities
	a := table.Users.AS("author")
	var out notification
	var author, forum, community, data *string
	err := db.QueryRow(ctx, p.db, pg.SELECT(n.ID, n.UserID, n.SourceID, n.AuthorID, n.Kind, n.PostID, n.SeriesID, n.CommunityID, n.ChannelID,
		n.Preview, n.CreatedOn, u.Email, u.Role, a.FirstName.CONCAT(pg.String(" ")).CONCAT(a.LastName), s.Name, c.Name,
		pg.EXISTS(pg.SELECT(o.UserID).FROM(o).WHERE(o.UserID.EQ(n.UserID).AND(o.Nodes.GT(pg.Int(0))))), up.Data).
		FROM(n.INNER_JOIN(u, u.ID.EQ(n.UserID)).
			LEFT_JOIN(a, a.ID.EQ(n.AuthorID)).
			LEFT_JOIN(s, s.ID.EQ(n.SeriesID)).
			LEFT_JOIN(c, c.ID.EQ(n.CommunityID)).
			LEFT_JOIN(up, up.UserID.EQ(n.UserID))).
		WHERE(n.ID.EQ(pg.UUID(id)))).
		Scan(&out.ID, &out.UserID, &out.SourceID, &out.AuthorID, &out.Kind, &out.PostID, &out.SeriesID, &out.CommunityID, &out.ChannelID,
			&out.Preview, &out.CreatedOn, &out.Email, &out.Role, &author, &forum, &community, &out.Online, &data)
	if err != nil {
		return out, err
	}
	out.Author, out.Forum, out.Community = deref(author), deref(forum), deref(community)
	out.Settings = readSettings([]byte(deref(data)))
	return out, nil
}

// mayRead reports whether the user may read the forum now.
func mayRead(ctx context.Context, q db.Querier, user uuid.UUID, role string, series uuid.UUID) (bool, error) {
	_, err := access.ReadForum(ctx, q, user, auth.Role(role), series)
	if errors.Is(err, access.ErrForumNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("delivery: %w", err)
	}
	return true, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// postURL is the post's page with its comments open, for reason (comment
// or mention) and at the comment or reply it is about (&reply=, as the
// bell's View opens it: scrolled to and marked), the forum's page for a
// notification without a post (forum-access), the community's page for a
// notification about a community (community-join), or the home page
// (where the chat is) for a message.
func (p *Projection) postURL(n notification, absolute bool) string {
	path := postPath(n.CommunityID, n.SeriesID, n.PostID, []string{n.Kind})
	if r := notice.ReplyOf(n.Kind, n.SourceID, n.PostID); r != nil && n.CommunityID != nil && n.SeriesID != nil {
		path += "&reply=" + r.String()
	}
	if notice.Of(n.Kind).About == notice.Community && n.CommunityID != nil {
		path = "/communities/" + n.CommunityID.String()
	}
	if absolute {
		return p.opts.BaseURL + path
	}
	return path
}

// postPath is the page of a post for notifications of kinds, with the
// ?reason= of the first that has one (notice.Reason: mention, else
// comment); the forum's without a post, /home without a forum.
func postPath(community, series, post *uuid.UUID, kinds []string) string {
	if community == nil || series == nil {
		return "/home"
	}
	if post == nil {
		return fmt.Sprintf("/communities/%s/series/%s", community, series)
	}
	page := fmt.Sprintf("/communities/%s/series/%s/posts/%s", community, series, post)
	if r := notice.Reason(kinds); r != "" {
		return page + "?reason=" + r
	}
	return page // a Meet Up's post: nothing to point at in it
}

// who is what n's words name.
func (n notification) who() notice.Who {
	return notice.Who{Author: n.Author, Forum: n.Forum, Community: n.Community}
}

// claim writes the delivery row of (notification, channel, subscription)
// in tx, unless one exists: false means it was sent, or is being retried,
// already.
func claim(ctx context.Context, tx pgx.Tx, notification uuid.UUID, channel string, subscription *uuid.UUID, now time.Time) (uuid.UUID, bool, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return id, false, err
	}
	sub := pg.Expression(pg.NULL)
	if subscription != nil {
		sub = pg.UUID(*subscription)
	}
	d := table.NotificationDeliveries
	tag, err := db.Exec(ctx, tx, d.INSERT(d.ID, d.NotificationID, d.Channel, d.SubscriptionID, d.Attempts, d.LastAttemptOn).
		VALUES(pg.UUID(id), pg.UUID(notification), pg.String(channel), sub, pg.Int(1), pg.TimestampzT(now)).
		ON_CONFLICT().DO_NOTHING())
	if err != nil {
		return id, false, fmt.Errorf("delivery: claim: %w", err)
	}
	return id, tag.RowsAffected() == 1, nil
}

// settle records the outcome of an attempt on the delivery row.
func settle(ctx context.Context, tx pgx.Tx, delivery uuid.UUID, sendErr error, now time.Time) error {
	d := table.NotificationDeliveries
	stmt := d.UPDATE(d.SentOn, d.LastError).SET(pg.TimestampzT(now), pg.NULL)
	if sendErr != nil {
		msg := sendErr.Error()
		if len(msg) > 500 {
			msg = msg[:500]
		}
		stmt = d.UPDATE(d.LastError).SET(pg.String(msg))
	}
	if _, err := db.Exec(ctx, tx, stmt.WHERE(d.ID.EQ(pg.UUID(delivery)))); err != nil {
		return fmt.Errorf("delivery: settle: %w", err)
	}
	return nil
}

// email mails n once, with an unsubscribe link for its setting. A private
// message is mailed once per conversation until the member has opened it:
// a later message of the same conversation waits for them there.
func (p *Projection) email(ctx context.Context, n notification) error {
	return db.InTx(ctx, p.db, func(tx pgx.Tx) error {
		now := p.opts.Now()
		if notice.Of(n.Kind).About == notice.Conversation && n.ChannelID != nil {
			d, o, cm := table.NotificationDeliveries, table.Notifications, table.ChannelMembers
			var pending bool
			err := db.QueryRow(ctx, tx, pg.SELECT(pg.EXISTS(pg.SELECT(d.ID).
				FROM(d.INNER_JOIN(o, o.ID.EQ(d.NotificationID)).
					LEFT_JOIN(cm, cm.ChannelID.EQ(o.ChannelID).AND(cm.UserID.EQ(o.UserID)))).
				WHERE(d.Channel.EQ(pg.String("email")).AND(o.UserID.EQ(pg.UUID(n.UserID))).AND(o.Kind.EQ(pg.String(n.Kind))).
					AND(o.ChannelID.EQ(pg.UUID(*n.ChannelID))).AND(o.ID.NOT_EQ(pg.UUID(n.ID))).
					AND(cm.LastSeenOn.IS_NULL().OR(o.CreatedOn.GT(cm.LastSeenOn))))))).Scan(&pending)
			if err != nil {
				return fmt.Errorf("delivery: %w", err)
			}
			if pending {
				return nil
			}
		}
		if notice.Of(n.Kind).Burst {
			held, send, err := p.burstMail(ctx, tx, n, now)
			if err != nil || !send {
				return err
			}
			if held != nil {
				_, err := claimHeld(ctx, tx, n.ID, *held)
				return err
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

// message is the e-mail of n, with the unsubscribe link of the setting
// that mails its kind.
func (p *Projection) message(ctx context.Context, tx pgx.Tx, n notification) (mail.Message, error) {
	subject, intro := notice.Mail(n.Kind, n.who())
	setting := notice.Of(n.Kind).Email
	if setting == "" {
		// A kind never mailed at once has no mail to retry; were one to
		// come, its link turns off the mentions' mails, as it always did.
		setting = personalization.EmailMentions
	}
	unsubscribe, err := unsubscribeLink(ctx, tx, p.opts.BaseURL, n.UserID, setting)
	if err != nil {
		return mail.Message{}, err
	}
	body := fmt.Sprintf("%s\r\n\r\n%s\r\nOpen it: %s\r\n\r\n-- \r\nTo stop these e-mails: %s\r\nOr change your notification settings: %s\r\n",
		intro, quote(n.Preview), p.postURL(n, true), unsubscribe, p.opts.BaseURL+"/profile")
	return mail.Message{To: n.Email, Subject: subject, Body: body, ListUnsubscribe: unsubscribe}, nil
}

// unsubscribeLink makes the link that turns setting off for user: a
// random token whose hash is kept, like a session's.
func unsubscribeLink(ctx context.Context, tx pgx.Tx, base string, user uuid.UUID, setting string) (string, error) {
	token, hash := auth.NewToken()
	ut := table.UnsubscribeTokens
	_, err := db.Exec(ctx, tx, ut.INSERT(ut.TokenHash, ut.UserID, ut.Setting).VALUES(pg.Bytea(hash), pg.UUID(user), pg.String(setting)))
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
	ps, d, o := table.PushSubscriptions, table.NotificationDeliveries, table.Notifications
	rows, err := db.Query(ctx, p.db, pg.SELECT(ps.ID, ps.Endpoint, ps.P256dh, ps.Auth).FROM(ps).
		WHERE(ps.UserID.EQ(pg.UUID(n.UserID)).AND(pg.NOT(pg.EXISTS(pg.SELECT(d.ID).
			FROM(d.INNER_JOIN(o, o.ID.EQ(d.NotificationID))).
			WHERE(d.SubscriptionID.EQ(ps.ID).AND(o.UserID.EQ(pg.UUID(n.UserID))).AND(o.SourceID.EQ(pg.UUID(n.SourceID))).
				AND(o.ID.NOT_EQ(pg.UUID(n.ID)))))))).
		ORDER_BY(ps.ID))
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
		err := db.InTx(ctx, p.db, func(tx pgx.Tx) error {
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
		ps := table.PushSubscriptions
		if _, err := db.Exec(ctx, tx, ps.DELETE().WHERE(ps.ID.EQ(pg.UUID(s.ID)))); err != nil {
			return fmt.Errorf("delivery: drop subscription: %w", err)
		}
		return nil
	}
	if err == nil {
		ps := table.PushSubscriptions
		if _, err := db.Exec(ctx, tx, ps.UPDATE(ps.LastUsedOn).SET(pg.TimestampzT(now)).WHERE(ps.ID.EQ(pg.UUID(s.ID)))); err != nil {
			return fmt.Errorf("delivery: %w", err)
		}
	}
	return settle(ctx, tx, delivery, err, now)
}

// pushMessage is what the browser shows for n, tagged with its source:
// one post or comment is one notification on the screen, however often it
// is delivered.
func (p *Projection) pushMessage(n notification) webpush.Message {
	return webpush.Message{Title: notice.Headline([]string{n.Kind}, n.who()), Body: n.Preview, URL: p.postURL(n, false), Tag: n.SourceID.String()}
}
