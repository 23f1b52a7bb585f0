package delivery

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	pg "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/adapters/mail"
	"agora/internal/adapters/webpush"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
	"agora/internal/rules/notice"
	"agora/internal/rules/personalization"
)

// Schedule runs the scheduler until ctx ends: every Interval it mails the
// digests that are due and retries the failed sendings. The projections'
// runner starts it beside the consumer, in agora projector and agora dev;
// several projectors may run it at once.
func (p *Projection) Schedule(ctx context.Context) {
	t := time.NewTicker(p.opts.Interval)
	defer t.Stop()
	for {
		if err := p.Tick(ctx); err != nil && ctx.Err() == nil {
			p.opts.Log.Warn("notification scheduler", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Tick does one round of the scheduler at the clock's time.
func (p *Projection) Tick(ctx context.Context) error {
	return errors.Join(p.Retry(ctx), p.Bursts(ctx), p.Digests(ctx), p.InsightsDigests(ctx), p.Prune(ctx))
}

// Kept are how long an e-mail's unsubscribe link works, and how long a
// digest period is remembered (longer than any period, so none is mailed
// twice).
const (
	KeptUnsubscribeLinks = 365 * 24 * time.Hour
	KeptDigestRuns       = 30 * 24 * time.Hour
	// KeptInvitationMails is longer than the invitation limits' windows.
	KeptInvitationMails = 7 * 24 * time.Hour
)

// Prune forgets the unsubscribe links and digest periods past keeping.
func (p *Projection) Prune(ctx context.Context) error {
	now := p.opts.Now()
	ut, dr, im := table.UnsubscribeTokens, table.DigestRuns, table.InvitationMails
	if _, err := db.Exec(ctx, p.db, ut.DELETE().WHERE(ut.CreatedOn.LT(pg.TimestampzT(now.Add(-KeptUnsubscribeLinks))))); err != nil {
		return fmt.Errorf("delivery: prune: %w", err)
	}
	if _, err := db.Exec(ctx, p.db, dr.DELETE().WHERE(dr.PeriodStart.LT(pg.TimestampzT(now.Add(-KeptDigestRuns))))); err != nil {
		return fmt.Errorf("delivery: prune: %w", err)
	}
	// The invitation limits look back a day at most
	// (command/account's invitationDay and AGORA_INVITATION_RESEND_AFTER,
	// kept below it).
	if _, err := db.Exec(ctx, p.db, im.DELETE().WHERE(im.SentOn.LT(pg.TimestampzT(now.Add(-KeptInvitationMails))))); err != nil {
		return fmt.Errorf("delivery: prune: %w", err)
	}
	return nil
}

// retryAfter is how long after its n-th attempt a sending is tried again:
// a minute, doubling, at most six hours.
func retryAfter(n int) time.Duration {
	return min(time.Minute<<max(n-1, 0), 6*time.Hour)
}

// Retry tries again the sendings that failed and whose delay has passed,
// each under a lock that a second scheduler skips.
func (p *Projection) Retry(ctx context.Context) error {
	now := p.opts.Now()
	d := table.NotificationDeliveries
	rows, err := db.Query(ctx, p.db, pg.SELECT(d.ID, d.Attempts, d.LastAttemptOn).FROM(d).
		WHERE(d.SentOn.IS_NULL().AND(d.HeldUntil.IS_NULL()).AND(d.Attempts.LT(pg.Int(MaxAttempts)))).
		ORDER_BY(d.LastAttemptOn).LIMIT(500))
	if err != nil {
		return fmt.Errorf("delivery: retry: %w", err)
	}
	type pending struct {
		id       uuid.UUID
		attempts int
		last     time.Time
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (pending, error) {
		var d pending
		return d, r.Scan(&d.id, &d.attempts, &d.last)
	})
	if err != nil {
		return fmt.Errorf("delivery: retry: %w", err)
	}
	var errs []error
	for _, d := range list {
		if now.Sub(d.last) < retryAfter(d.attempts) {
			continue
		}
		errs = append(errs, p.retryOne(ctx, d.id, now))
	}
	return errors.Join(errs...)
}

func (p *Projection) retryOne(ctx context.Context, delivery uuid.UUID, now time.Time) error {
	return db.InTx(ctx, p.db, func(tx pgx.Tx) error {
		var id uuid.UUID
		var channel string
		var sub subscription
		var subID *uuid.UUID
		var endpoint, p256dh, authKey *string
		d, ps := table.NotificationDeliveries, table.PushSubscriptions
		err := db.QueryRow(ctx, tx, pg.SELECT(d.NotificationID, d.Channel, ps.ID, ps.Endpoint, ps.P256dh, ps.Auth).
			FROM(d.LEFT_JOIN(ps, ps.ID.EQ(d.SubscriptionID))).
			WHERE(d.ID.EQ(pg.UUID(delivery)).AND(d.SentOn.IS_NULL())).
			FOR(pg.UPDATE().OF(d).SKIP_LOCKED())).
			Scan(&id, &channel, &subID, &endpoint, &p256dh, &authKey)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("delivery: retry: %w", err)
		}
		_, err = db.Exec(ctx, tx, d.UPDATE(d.Attempts, d.LastAttemptOn).SET(d.Attempts.ADD(pg.Int(1)), pg.TimestampzT(now)).
			WHERE(d.ID.EQ(pg.UUID(delivery))))
		if err != nil {
			return fmt.Errorf("delivery: retry: %w", err)
		}
		n, err := p.notification(ctx, id)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		switch {
		case channel == "email":
			m, err := p.message(ctx, tx, n)
			if err != nil {
				return err
			}
			return settle(ctx, tx, delivery, p.opts.Mail.Send(ctx, m), now)
		case p.opts.Push != nil && subID != nil:
			sub = subscription{ID: *subID, Subscription: webpush.Subscription{Endpoint: *endpoint, P256dh: *p256dh, Auth: *authKey}}
			return p.sendPush(ctx, tx, delivery, sub, p.pushMessage(n), now)
		}
		return nil
	})
}

// member is a recipient of digests.
type member struct {
	ID                 uuid.UUID
	Email, First, Role string
	Settings           settings
}

// digestKinds are the notifications a posts digest lists.
var digestKinds = notice.Names(func(k notice.Kind) bool { return k.Digested })

// Digests mails each member whose digest is due the unread comment, reply
// and mention notifications of its period, once per period.
func (p *Projection) Digests(ctx context.Context) error {
	now := p.opts.Now()
	// Only members with such a notification in the last week can have
	// anything to read.
	n := table.Notifications
	members, err := p.members(ctx, table.Users.ID.IN(pg.SELECT(n.UserID).FROM(n).
		WHERE(n.Kind.IN(db.Strings(digestKinds)...).AND(n.CreatedOn.GT(pg.TimestampzT(now.AddDate(0, 0, -8)))))))
	if err != nil {
		return err
	}
	var errs []error
	for _, d := range dueDigests(members, func(s settings) string { return s.Digest }, now) {
		errs = append(errs, p.postsDigest(ctx, d.member, d.frequency, d.start, d.end))
	}
	return errors.Join(errs...)
}

// dueDigest is a member's digest that is due, and its period.
type dueDigest struct {
	member     member
	frequency  string
	start, end time.Time
}

// dueDigests are the members' digests of the frequency setting that are
// due at now.
func dueDigests(members []member, frequency func(settings) string, now time.Time) []dueDigest {
	var out []dueDigest
	for _, m := range members {
		f := frequency(m.Settings)
		if f == personalization.Off {
			continue
		}
		if start, end, due := m.Settings.period(f, now); due {
			out = append(out, dueDigest{member: m, frequency: f, start: start, end: end})
		}
	}
	return out
}

// members reads the users where says, with their settings.
func (p *Projection) members(ctx context.Context, where pg.BoolExpression) ([]member, error) {
	u, up := table.Users, table.UserPersonalization
	rows, err := db.Query(ctx, p.db, pg.SELECT(u.ID, u.Email, u.FirstName, u.Role, up.Data).
		FROM(u.LEFT_JOIN(up, up.UserID.EQ(u.ID))).WHERE(where))
	if err != nil {
		return nil, fmt.Errorf("delivery: digest members: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (member, error) {
		var m member
		var data *string
		err := r.Scan(&m.ID, &m.Email, &m.First, &m.Role, &data)
		m.Settings = readSettings([]byte(deref(data)))
		return m, err
	})
}

// run records the digest period of kind for m in tx; false means it ran
// already (here or in another scheduler, which holds the row until it has
// mailed).
func run(ctx context.Context, tx pgx.Tx, user uuid.UUID, kind string, start, now time.Time) (bool, error) {
	dr := table.DigestRuns
	tag, err := db.Exec(ctx, tx, dr.INSERT(dr.UserID, dr.Kind, dr.PeriodStart, dr.SentOn).
		VALUES(pg.UUID(user), pg.String(kind), pg.TimestampzT(start), pg.TimestampzT(now)).ON_CONFLICT().DO_NOTHING())
	if err != nil {
		return false, fmt.Errorf("delivery: digest run: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// digestItem is a source in a digest: a comment on the member's post, a
// reply to their comment, or where they were mentioned (a source that is
// both is one item).
type digestItem struct {
	Kinds                         []string
	Author, Forum, Preview        string
	CommunityID, SeriesID, PostID *uuid.UUID
}

// unread are m's comment, reply and mention notifications of [start, end)
// that they have not opened from the list, dismissed, or seen there, one
// item per source, oldest first.
func (p *Projection) unread(ctx context.Context, tx pgx.Tx, m member, start, end time.Time) ([]digestItem, error) {
	n, s := table.Notifications, table.Series
	a := table.Users.AS("author")
	where := n.UserID.EQ(pg.UUID(m.ID)).AND(n.Kind.IN(db.Strings(digestKinds)...)).
		AND(n.CreatedOn.GT_EQ(pg.TimestampzT(start))).AND(n.CreatedOn.LT(pg.TimestampzT(end)))
	if !m.Settings.LastSeenAt.IsZero() {
		where = where.AND(n.CreatedOn.GT(pg.TimestampzT(m.Settings.LastSeenAt)))
	}
	var gone []pg.Expression
	for _, id := range append(append([]uuid.UUID{}, m.Settings.Read...), m.Settings.Dismissed...) {
		gone = append(gone, pg.UUID(id))
	}
	if len(gone) > 0 {
		where = where.AND(n.ID.NOT_IN(gone...))
	}
	rows, err := db.Query(ctx, tx, pg.SELECT(n.SourceID, n.Kind, a.FirstName.CONCAT(pg.String(" ")).CONCAT(a.LastName), s.Name,
		n.Preview, n.CommunityID, n.SeriesID, n.PostID).
		FROM(n.LEFT_JOIN(a, a.ID.EQ(n.AuthorID)).LEFT_JOIN(s, s.ID.EQ(n.SeriesID))).
		WHERE(where).ORDER_BY(n.CreatedOn, n.ID))
	if err != nil {
		return nil, fmt.Errorf("delivery: digest: %w", err)
	}
	type row struct {
		source        uuid.UUID
		kind          string
		author, forum *string
		it            digestItem
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (row, error) {
		var x row
		err := r.Scan(&x.source, &x.kind, &x.author, &x.forum, &x.it.Preview, &x.it.CommunityID, &x.it.SeriesID, &x.it.PostID)
		return x, err
	})
	if err != nil {
		return nil, fmt.Errorf("delivery: digest: %w", err)
	}
	var items []digestItem
	at := map[uuid.UUID]int{}
	readable := map[uuid.UUID]bool{}
	for _, x := range list {
		if s := x.it.SeriesID; s != nil {
			ok, seen := readable[*s]
			if !seen {
				if ok, err = mayRead(ctx, tx, m.ID, m.Role, *s); err != nil {
					return nil, err
				}
				readable[*s] = ok
			}
			if !ok {
				// They have left the forum since.
				continue
			}
		}
		if i, ok := at[x.source]; ok {
			items[i].Kinds = append(items[i].Kinds, x.kind)
			continue
		}
		x.it.Kinds, x.it.Author, x.it.Forum = []string{x.kind}, deref(x.author), deref(x.forum)
		at[x.source] = len(items)
		items = append(items, x.it)
	}
	return items, nil
}

func (p *Projection) postsDigest(ctx context.Context, m member, f string, start, end time.Time) error {
	return db.InTx(ctx, p.db, func(tx pgx.Tx) error {
		now := p.opts.Now()
		ok, err := run(ctx, tx, m.ID, "posts", start, now)
		if err != nil || !ok {
			return err
		}
		// Unread: not opened from the list, not dismissed, and newer than
		// the list's last look.
		items, err := p.unread(ctx, tx, m, start, end)
		if err != nil {
			return err
		}
		if len(items) == 0 {
			return nil
		}
		unsubscribe, err := unsubscribeLink(ctx, tx, p.opts.BaseURL, m.ID, "notifications.digest.frequency")
		if err != nil {
			return err
		}
		var b strings.Builder
		fmt.Fprintf(&b, "Hello %s,\r\n\r\nWhat you have not read yet from the forums:\r\n", m.First)
		for _, it := range items {
			fmt.Fprintf(&b, "\r\n* %s:\r\n%s", notice.Headline(it.Kinds, notice.Who{Author: it.Author, Forum: it.Forum}), quote(it.Preview))
			if it.PostID != nil {
				fmt.Fprintf(&b, "    %s%s\r\n", p.opts.BaseURL, postPath(it.CommunityID, it.SeriesID, it.PostID, it.Kinds))
			}
		}
		fmt.Fprintf(&b, "\r\n-- \r\nTo stop these digests: %s\r\nOr change your notification settings: %s/profile\r\n", unsubscribe, p.opts.BaseURL)
		subject := fmt.Sprintf("Your %s Agora digest: %d new", f, len(items))
		return p.opts.Mail.Send(ctx, mail.Message{To: m.Email, Subject: subject, Body: b.String(), ListUnsubscribe: unsubscribe})
	})
}

// InsightsDigests mails each member whose insights digest is due the
// figures of the period of each forum whose insights they may read, once
// per period. Those are the people the Insights tab is for: by the rule
// of GET /api/insights (access.Forum.Admin; access.ForumRules is its form
// for lists), a forum's admins, the admins of its community or
// organization, and super users.
func (p *Projection) InsightsDigests(ctx context.Context) error {
	if p.opts.Insights == nil {
		return nil
	}
	now := p.opts.Now()
	u, se := table.Users, table.Series
	members, err := p.members(ctx, pg.EXISTS(pg.SELECT(se.ID).FROM(se).WHERE(insightsReader(u.ID, u.Role.EQ(pg.String(string(auth.RoleSuper)))))))
	if err != nil {
		return err
	}
	var errs []error
	for _, d := range dueDigests(members, func(s settings) string { return s.Insights }, now) {
		days := 1
		if d.frequency == personalization.Weekly {
			days = 7
		}
		errs = append(errs, p.insightsDigest(ctx, d.member, d.frequency, d.start, days))
	}
	return errors.Join(errs...)
}

func (p *Projection) insightsDigest(ctx context.Context, m member, f string, start time.Time, days int) error {
	return db.InTx(ctx, p.db, func(tx pgx.Tx) error {
		ok, err := run(ctx, tx, m.ID, "insights", start, p.opts.Now())
		if err != nil || !ok {
			return err
		}
		se := table.Series
		rows, err := db.Query(ctx, tx, pg.SELECT(se.ID, se.Name).FROM(se).
			WHERE(insightsReader(pg.UUID(m.ID), pg.Bool(m.Role == string(auth.RoleSuper)))).
			ORDER_BY(se.Name, se.ID))
		if err != nil {
			return fmt.Errorf("delivery: insights digest: %w", err)
		}
		type forum struct {
			id   uuid.UUID
			name string
		}
		forums, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (forum, error) {
			var x forum
			return x, r.Scan(&x.id, &x.name)
		})
		if err != nil {
			return fmt.Errorf("delivery: insights digest: %w", err)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "Hello %s,\r\n\r\nYour forums over the last %d day(s):\r\n", m.First, days)
		listed := 0
		for _, x := range forums {
			s, err := p.opts.Insights.DigestSummary(ctx, auth.Caller{UserID: m.ID, Role: auth.Role(m.Role)}, x.id, days)
			if err != nil {
				// A forum they no longer administer is left out.
				p.opts.Log.Info("insights digest: forum left out", "user", m.ID, "forum", x.id, "err", err)
				continue
			}
			listed++
			fmt.Fprintf(&b, "\r\n* %s: %d interactions, %d shared content, %d members visiting, %d questions and AI searches\r\n",
				x.name, s.Interactions, s.SharedContent, s.Members, s.Inquiries)
		}
		if listed == 0 {
			return nil
		}
		unsubscribe, err := unsubscribeLink(ctx, tx, p.opts.BaseURL, m.ID, "notifications.insights.frequency")
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "\r\n-- \r\nTo stop these digests: %s\r\nOr change your notification settings: %s/profile\r\n", unsubscribe, p.opts.BaseURL)
		return p.opts.Mail.Send(ctx, mail.Message{To: m.Email, Subject: fmt.Sprintf("Your %s Agora insights", f), Body: b.String(), ListUnsubscribe: unsubscribe})
	})
}

// insightsReader is the condition that user may read the insights of the
// forum of table.Series: that they administer it (access.ForumRules), the
// rule DigestSummary checks again for each forum, as GET /api/insights does.
func insightsReader(user pg.StringExpression, super pg.BoolExpression) pg.BoolExpression {
	se := table.Series
	_, admin := access.ForumRules(se.ID, se.CommunityID, user, super)
	return admin
}
