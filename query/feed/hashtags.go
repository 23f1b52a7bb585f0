package feed

import (
	"context"
	"fmt"
	"unicode/utf8"

	"agora/internal/apperr"
)

// MaxHashtags is the most suggestions GET /hashtags returns.
const MaxHashtags = 10

// Hashtag is a tag in use and how many posts and comments use it.
type Hashtag struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// HashtagList is GET /hashtags.
type HashtagList struct {
	Tags []Hashtag `json:"tags"`
}

// readable lists the forums $1 (a user) with role $2 may read, the rule of
// internal/access in SQL: active members, community and organization
// admins, super users.
const readable = `SELECT s.id FROM series s WHERE $2 = 'super'
	OR EXISTS (SELECT 1 FROM series_memberships sm JOIN profiles p ON p.id = sm.profile_id
	           WHERE sm.series_id = s.id AND p.user_id = $1 AND sm.status = 'active')
	OR EXISTS (SELECT 1 FROM community_memberships cm JOIN profiles p ON p.id = cm.profile_id
	           WHERE cm.community_id = s.community_id AND p.user_id = $1 AND cm.status = 'active' AND cm.role IN ('admin', 'cascadingAdmin'))
	OR EXISTS (SELECT 1 FROM profiles p JOIN communities c ON c.organization_id = p.organization_id
	           WHERE c.id = s.community_id AND p.user_id = $1 AND p.role = 'admin')`

// mainChannel keeps to the forums' feeds: the admin channel's posts are for
// forum admins, and their tags must not leak to members through suggestions.
const mainChannel = `EXISTS (SELECT 1 FROM channels c WHERE c.id = t.channel_id AND c.kind = 'main')`

// Hashtags suggests the hashtags used in the forums the viewer can read
// whose name starts with prefix (case-insensitive), most used first.
func (q *Queries) Hashtags(ctx context.Context, v Viewer, prefix string) (HashtagList, error) {
	list := HashtagList{Tags: []Hashtag{}}
	if utf8.RuneCountInString(prefix) > 100 {
		return list, apperr.Invalid(map[string]string{"q": "must be at most 100 characters"})
	}
	rows, err := q.db.QueryContext(ctx, `WITH used AS (
			SELECT h FROM threads t, unnest(t.hashtags) h WHERE t.series_id IN (`+readable+`) AND `+mainChannel+`
			UNION ALL
			SELECT h FROM replies r JOIN threads t ON t.id = r.thread_id, unnest(r.hashtags) h WHERE t.series_id IN (`+readable+`) AND `+mainChannel+`)
		SELECT min(h), count(*) FROM used WHERE left(lower(h), char_length($3)) = lower($3)
		GROUP BY lower(h) ORDER BY count(*) DESC, lower(h) LIMIT $4`, v.UserID, string(v.Role), prefix, MaxHashtags)
	if err != nil {
		return list, fmt.Errorf("feed: hashtags: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var h Hashtag
		if err := rows.Scan(&h.Name, &h.Count); err != nil {
			return list, err
		}
		list.Tags = append(list.Tags, h)
	}
	return list, rows.Err()
}
