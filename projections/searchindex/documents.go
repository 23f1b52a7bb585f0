package searchindex

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/richtext"
	"agora/search"
)

// members rewrites the member documents of the changed profiles and of
// every profile of the changed users.
func (p *Projection) members(ctx context.Context, k *keys) error {
	if len(k.profiles) == 0 && len(k.users) == 0 {
		return nil
	}
	rows, err := p.db.Query(ctx, `
		SELECT p.id::text, coalesce(p.user_id::text, ''), coalesce(u.first_name, p.first_name), coalesce(u.last_name, p.last_name),
			coalesce(u.email, p.email), coalesce(u.job_title, p.job_title), coalesce(u.company, p.company), p.organization_id::text,
			ARRAY(SELECT community_id::text FROM community_memberships WHERE profile_id = p.id),
			ARRAY(SELECT series_id::text FROM series_memberships WHERE profile_id = p.id),
			ARRAY(SELECT community_id::text FROM community_memberships WHERE profile_id = p.id AND role IN ('admin', 'cascadingAdmin'))
				|| ARRAY(SELECT series_id::text FROM series_memberships WHERE profile_id = p.id AND role = 'admin'),
			ARRAY(SELECT series_id::text FROM series_memberships WHERE profile_id = p.id AND is_expert)
		FROM profiles p LEFT JOIN users u ON u.id = p.user_id
		WHERE p.id = ANY($1) OR p.user_id = ANY($2)`, k.profiles.list(), k.users.list())
	if err != nil {
		return err
	}
	found, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (search.Member, error) {
		var m search.Member
		var org string
		err := r.Scan(&m.ID, &m.UserID, &m.FirstName, &m.LastName, &m.Email, &m.JobTitle, &m.Company, &org,
			&m.CommunityIDs, &m.ForumIDs, &m.AdminOf, &m.ExpertIn)
		m.OrganizationIDs = []string{org}
		m.FullName = m.FirstName + " " + m.LastName
		m.SortName = sortName(m.FirstName, m.LastName)
		return m, err
	})
	if err != nil {
		return err
	}
	return sync(ctx, p.store.Members(), k.profiles, found)
}

// peers rewrites the peer documents of the changed users, of the users of
// the changed profiles and memberships, and of the experts of renamed
// forums. A user with no active community membership has none.
func (p *Projection) peers(ctx context.Context, k *keys) error {
	if len(k.users) == 0 && len(k.profiles) == 0 && len(k.seriesRenamed) == 0 {
		return nil
	}
	rows, err := p.db.Query(ctx, `
		SELECT u.id::text, u.first_name, u.last_name, u.company, u.job_title, u.interest_tags,
			ARRAY(SELECT DISTINCT cm.community_id::text FROM profiles p JOIN community_memberships cm ON cm.profile_id = p.id
			      WHERE p.user_id = u.id AND cm.status = 'active'),
			ARRAY(SELECT DISTINCT s.name FROM profiles p JOIN series_memberships sm ON sm.profile_id = p.id JOIN series s ON s.id = sm.series_id
			      WHERE p.user_id = u.id AND sm.is_expert AND sm.status = 'active')
		FROM users u
		WHERE u.id = ANY($1)
		   OR u.id IN (SELECT user_id FROM profiles WHERE id = ANY($2))
		   OR u.id IN (SELECT p.user_id FROM series_memberships sm JOIN profiles p ON p.id = sm.profile_id
		               WHERE sm.series_id = ANY($3) AND sm.is_expert)`,
		k.users.list(), k.profiles.list(), k.seriesRenamed.list())
	if err != nil {
		return err
	}
	all, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (search.Peer, error) {
		var pe search.Peer
		err := r.Scan(&pe.ID, &pe.FirstName, &pe.LastName, &pe.Company, &pe.JobTitle, &pe.Tags, &pe.CommunityIDs, &pe.Expertise)
		pe.Name = pe.FirstName + " " + pe.LastName
		pe.SortName = sortName(pe.FirstName, pe.LastName)
		return pe, err
	})
	if err != nil {
		return err
	}
	wanted := ids{}
	for id := range k.users {
		wanted[id] = true
	}
	var found []search.Peer
	for _, pe := range all {
		if len(pe.CommunityIDs) > 0 {
			found = append(found, pe)
			continue
		}
		if id, err := uuid.Parse(pe.ID); err == nil {
			wanted[id] = true // no community left: its document goes
		}
	}
	return sync(ctx, p.store.Peers(), wanted, found)
}

// posts rewrites the documents of the changed posts, comments and replies.
func (p *Projection) posts(ctx context.Context, k *keys) error {
	if len(k.threads) == 0 && len(k.replies) == 0 {
		return nil
	}
	rows, err := p.db.Query(ctx, `
		SELECT t.id::text, t.type, t.id::text, '', t.channel_id::text, t.series_id::text, s.community_id::text,
			CASE WHEN t.creator_as = 'author' THEN t.creator_id::text ELSE '' END, t.raw, t.hashtags, t.created_on
		FROM threads t JOIN series s ON s.id = t.series_id
		WHERE t.id = ANY($1)
		UNION ALL
		SELECT r.id::text, CASE WHEN r.parent_id IS NULL THEN 'comment' ELSE 'reply' END, r.thread_id::text, coalesce(r.parent_id::text, ''),
			t.channel_id::text, t.series_id::text, s.community_id::text, r.creator_id::text, r.raw, r.hashtags, r.created_on
		FROM replies r JOIN threads t ON t.id = r.thread_id JOIN series s ON s.id = t.series_id
		WHERE r.id = ANY($2)`, k.threads.list(), k.replies.list())
	if err != nil {
		return err
	}
	found, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (search.Post, error) {
		var d search.Post
		var created time.Time
		err := r.Scan(&d.ID, &d.Kind, &d.ThreadID, &d.ParentID, &d.ChannelID, &d.ForumID, &d.CommunityID, &d.AuthorID, &d.Text, &d.Hashtags, &created)
		d.Text = richtext.Plain(d.Text)
		d.CreatedAt = created.UnixMilli()
		return d, err
	})
	if err != nil {
		return err
	}
	wanted := ids{}
	for id := range k.threads {
		wanted[id] = true
	}
	for id := range k.replies {
		wanted[id] = true
	}
	return sync(ctx, p.store.Posts(), wanted, found)
}

// hashtags recounts the changed (forum, name) pairs, and every name of the
// forums whose tags are all recounted.
func (p *Projection) hashtags(ctx context.Context, k *keys) error {
	if len(k.replyTags) > 0 {
		// A comment's tags count in its post's forum; a post already gone
		// has its forum recounted whole (keys.add).
		threads := make([]uuid.UUID, 0, len(k.replyTags))
		for t := range k.replyTags {
			threads = append(threads, t)
		}
		rows, err := p.db.Query(ctx, `SELECT id, series_id FROM threads WHERE id = ANY($1)`, threads)
		if err != nil {
			return err
		}
		var thread, series uuid.UUID
		if _, err := pgx.ForEachRow(rows, []any{&thread, &series}, func() error {
			for _, t := range k.replyTags[thread] {
				k.tags[tagKey{series, t}] = true
			}
			return nil
		}); err != nil {
			return err
		}
	}
	for s := range k.forumTags {
		for key := range k.tags {
			if key.series == s {
				delete(k.tags, key) // counted with the whole forum
			}
		}
	}
	if len(k.tags) == 0 && len(k.forumTags) == 0 {
		return nil
	}
	var seriesOf []uuid.UUID
	var tagOf []string
	for key := range k.tags {
		seriesOf, tagOf = append(seriesOf, key.series), append(tagOf, key.tag)
	}
	// One statement counts both: the named pairs through the lower-cased
	// hashtag indexes, and every name of the whole forums.
	rows, err := p.db.Query(ctx, `
		WITH k AS (SELECT DISTINCT series_id, tag FROM unnest($1::uuid[], $2::text[]) AS k (series_id, tag)),
		used AS (
			SELECT t.series_id, h FROM k
				JOIN threads t ON t.series_id = k.series_id AND lower_tags(t.hashtags) @> ARRAY[k.tag]
				JOIN channels c ON c.id = t.channel_id AND c.kind = 'main', unnest(t.hashtags) h
			WHERE lower(h) = k.tag
			UNION ALL
			SELECT t.series_id, h FROM k
				JOIN replies r ON lower_tags(r.hashtags) @> ARRAY[k.tag]
				JOIN threads t ON t.id = r.thread_id AND t.series_id = k.series_id
				JOIN channels c ON c.id = t.channel_id AND c.kind = 'main', unnest(r.hashtags) h
			WHERE lower(h) = k.tag
			UNION ALL
			SELECT t.series_id, h FROM threads t JOIN channels c ON c.id = t.channel_id AND c.kind = 'main', unnest(t.hashtags) h
			WHERE t.series_id = ANY($3)
			UNION ALL
			SELECT t.series_id, h FROM replies r JOIN threads t ON t.id = r.thread_id JOIN channels c ON c.id = t.channel_id AND c.kind = 'main',
				unnest(r.hashtags) h
			WHERE t.series_id = ANY($3))
		SELECT u.series_id, lower(u.h), min(u.h), count(*)::int, s.community_id::text
		FROM used u JOIN series s ON s.id = u.series_id
		GROUP BY u.series_id, lower(u.h), s.community_id`, seriesOf, tagOf, k.forumTags.list())
	if err != nil {
		return err
	}
	counted := map[string]bool{}
	var found []search.Hashtag
	var series uuid.UUID
	var h search.Hashtag
	var lower string
	if _, err := pgx.ForEachRow(rows, []any{&series, &lower, &h.Name, &h.Count, &h.CommunityID}, func() error {
		h.ForumID = series.String()
		h.ID = search.HashtagID(h.ForumID, lower)
		counted[h.ID] = true
		found = append(found, h)
		return nil
	}); err != nil {
		return err
	}
	x := p.store.Hashtags()
	if err := x.Upsert(ctx, found...); err != nil {
		return err
	}
	var gone []string
	for key := range k.tags {
		if id := search.HashtagID(key.series.String(), key.tag); !counted[id] {
			gone = append(gone, id)
		}
	}
	// A whole forum's recount also drops the names no longer used there.
	for s := range k.forumTags {
		for offset := 0; ; offset += search.MaxLimit {
			res, err := x.Search(ctx, search.Query{Filter: search.Filter{search.In("forumId", s.String())}, Limit: search.MaxLimit, Offset: offset})
			if err != nil {
				return err
			}
			for _, d := range res.Hits {
				if !counted[d.ID] {
					gone = append(gone, d.ID)
				}
			}
			if len(res.Hits) < search.MaxLimit {
				break
			}
		}
	}
	return x.Delete(ctx, gone...)
}

// sortName is the alphabetical key of member lists: "last first".
func sortName(first, last string) string {
	return strings.ToLower(strings.TrimSpace(last + " " + first))
}
