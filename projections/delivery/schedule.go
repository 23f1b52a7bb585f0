package delivery

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/auth"
	"agora/internal/mail"
	"agora/internal/webpush"
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
	return errors.Join(p.Retry(ctx), p.Digests(ctx), p.InsightsDigests(ctx))
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
	rows, err := p.db.Query(ctx, `SELECT id, attempts, last_attempt_on FROM notification_deliveries
		WHERE sent_on IS NULL AND attempts < $1 ORDER BY last_attempt_on LIMIT 500`, MaxAttempts)
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
	return pgx.BeginFunc(ctx, p.db, func(tx pgx.Tx) error {
		var id uuid.UUID
		var channel string
		var sub subscription
		var subID *uuid.UUID
		var endpoint, p256dh, authKey *string
		err := tx.QueryRow(ctx, `SELECT d.notification_id, d.channel, ps.id, ps.endpoint, ps.p256dh, ps.auth
			FROM notification_deliveries d LEFT JOIN push_subscriptions ps ON ps.id = d.subscription_id
			WHERE d.id = $1 AND d.sent_on IS NULL FOR UPDATE OF d SKIP LOCKED`, delivery).
			Scan(&id, &channel, &subID, &endpoint, &p256dh, &authKey)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("delivery: retry: %w", err)
		}
		if _, err := tx.Exec(ctx, `UPDATE notification_deliveries SET attempts = attempts + 1, last_attempt_on = $2 WHERE id = $1`, delivery, now); err != nil {
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
	ID           uuid.UUID
	Email, First string
	Settings     settings
}

// digestKinds are the notifications a posts digest lists.
var digestKinds = []string{"comment", "reply", "mention"}

// Digests mails each member whose digest is due the unread comment, reply
// and mention notifications of its period, once per period.
func (p *Projection) Digests(ctx context.Context) error {
	now := p.opts.Now()
	// Only members with such a notification in the last week can have
	// anything to read.
	members, err := p.members(ctx, `SELECT DISTINCT u.id, u.email, u.first_name, coalesce(up.data::text, '{}')
		FROM notifications n JOIN users u ON u.id = n.user_id LEFT JOIN user_personalization up ON up.user_id = u.id
		WHERE n.kind = ANY($1) AND n.created_on > $2`, digestKinds, now.AddDate(0, 0, -8))
	if err != nil {
		return err
	}
	var errs []error
	for _, m := range members {
		f := m.Settings.Digest
		if f == Off {
			continue
		}
		start, end, due := m.Settings.period(f, now)
		if !due {
			continue
		}
		errs = append(errs, p.postsDigest(ctx, m, f, start, end))
	}
	return errors.Join(errs...)
}

func (p *Projection) members(ctx context.Context, sql string, args ...any) ([]member, error) {
	rows, err := p.db.Query(ctx, sql, args...)
	if err != nil {
		return nil, fmt.Errorf("delivery: digest members: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (member, error) {
		var m member
		var data []byte
		err := r.Scan(&m.ID, &m.Email, &m.First, &data)
		m.Settings = readSettings(data)
		return m, err
	})
}

// run records the digest period of kind for m in tx; false means it ran
// already (here or in another scheduler, which holds the row until it has
// mailed).
func run(ctx context.Context, tx pgx.Tx, user uuid.UUID, kind string, start, now time.Time) (bool, error) {
	tag, err := tx.Exec(ctx, `INSERT INTO digest_runs (user_id, kind, period_start, sent_on) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
		user, kind, start, now)
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

func (p *Projection) postsDigest(ctx context.Context, m member, f string, start, end time.Time) error {
	return pgx.BeginFunc(ctx, p.db, func(tx pgx.Tx) error {
		now := p.opts.Now()
		ok, err := run(ctx, tx, m.ID, "posts", start, now)
		if err != nil || !ok {
			return err
		}
		// Unread: not opened from the list, not dismissed, and newer than
		// the list's last look.
		rows, err := tx.Query(ctx, `SELECT array_agg(n.kind ORDER BY n.kind), min(coalesce(a.first_name || ' ' || a.last_name, '')),
				min(coalesce(s.name, '')), min(n.preview), min(n.community_id::text)::uuid, min(n.series_id::text)::uuid, min(n.post_id::text)::uuid
			FROM notifications n LEFT JOIN users a ON a.id = n.author_id LEFT JOIN series s ON s.id = n.series_id
			WHERE n.user_id = $1 AND n.kind = ANY($2) AND n.created_on >= $3 AND n.created_on < $4 AND n.created_on > $5
				AND NOT (n.id::text = ANY($6))
			GROUP BY n.source_id ORDER BY min(n.created_on)`,
			m.ID, digestKinds, start, end, m.Settings.LastSeenAt, append(append(make([]string, 0, len(m.Settings.Read)+len(m.Settings.Dismissed)), m.Settings.Read...), m.Settings.Dismissed...))
		if err != nil {
			return fmt.Errorf("delivery: digest: %w", err)
		}
		items, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (digestItem, error) {
			var it digestItem
			return it, r.Scan(&it.Kinds, &it.Author, &it.Forum, &it.Preview, &it.CommunityID, &it.SeriesID, &it.PostID)
		})
		if err != nil {
			return fmt.Errorf("delivery: digest: %w", err)
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
			author := it.Author
			if author == "" {
				author = "Someone"
			}
			what := author + " commented on your post"
			switch {
			case slices.Contains(it.Kinds, "mention"):
				what = author + " mentioned you"
			case slices.Contains(it.Kinds, "reply"):
				what = author + " replied to your comment"
			}
			if it.Forum != "" {
				what += " in " + it.Forum
			}
			fmt.Fprintf(&b, "\r\n* %s:\r\n    %s\r\n", what, it.Preview)
			if it.CommunityID != nil && it.SeriesID != nil && it.PostID != nil {
				reason := "comment"
				if slices.Contains(it.Kinds, "mention") {
					reason = "mention"
				}
				fmt.Fprintf(&b, "    %s/communities/%s/series/%s/posts/%s?reason=%s\r\n", p.opts.BaseURL, it.CommunityID, it.SeriesID, it.PostID, reason)
			}
		}
		fmt.Fprintf(&b, "\r\n-- \r\nTo stop these digests: %s\r\nOr change your notification settings: %s/profile\r\n", unsubscribe, p.opts.BaseURL)
		subject := fmt.Sprintf("Your %s Agora digest: %d new", f, len(items))
		return p.opts.Mail.Send(ctx, mail.Message{To: m.Email, Subject: subject, Body: b.String(), ListUnsubscribe: unsubscribe})
	})
}

// InsightsDigests mails each forum admin whose insights digest is due the
// figures of the period of each forum they administer, once per period.
func (p *Projection) InsightsDigests(ctx context.Context) error {
	if p.opts.Insights == nil {
		return nil
	}
	now := p.opts.Now()
	members, err := p.members(ctx, `SELECT DISTINCT u.id, u.email, u.first_name, coalesce(up.data::text, '{}')
		FROM series_memberships sm JOIN profiles pr ON pr.id = sm.profile_id JOIN users u ON u.id = pr.user_id
		LEFT JOIN user_personalization up ON up.user_id = u.id
		WHERE sm.role = 'admin' AND sm.status = 'active'`)
	if err != nil {
		return err
	}
	var errs []error
	for _, m := range members {
		f := m.Settings.Insights
		if f == Off {
			continue
		}
		start, _, due := m.Settings.period(f, now)
		if !due {
			continue
		}
		days := 1
		if f == Weekly {
			days = 7
		}
		errs = append(errs, p.insightsDigest(ctx, m, f, start, days))
	}
	return errors.Join(errs...)
}

func (p *Projection) insightsDigest(ctx context.Context, m member, f string, start time.Time, days int) error {
	return pgx.BeginFunc(ctx, p.db, func(tx pgx.Tx) error {
		ok, err := run(ctx, tx, m.ID, "insights", start, p.opts.Now())
		if err != nil || !ok {
			return err
		}
		var role string
		if err := tx.QueryRow(ctx, `SELECT role FROM users WHERE id = $1`, m.ID).Scan(&role); err != nil {
			return fmt.Errorf("delivery: insights digest: %w", err)
		}
		rows, err := tx.Query(ctx, `SELECT s.id, s.name FROM series_memberships sm JOIN profiles pr ON pr.id = sm.profile_id
			JOIN series s ON s.id = sm.series_id WHERE pr.user_id = $1 AND sm.role = 'admin' AND sm.status = 'active' ORDER BY s.name`, m.ID)
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
			s, err := p.opts.Insights.DigestSummary(ctx, auth.Caller{UserID: m.ID, Role: auth.Role(role)}, x.id, days)
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
