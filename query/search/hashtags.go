package search

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/rules/access"
	index "agora/search"
)

// MaxHashtags is the most suggestions GET /hashtags returns.
const MaxHashtags = 10

// hashtagDocs is how many per-forum documents a suggestion adds up: the
// most used first, so the ten most used names are among them unless a name
// is spread thinly over very many forums.
const hashtagDocs = 500

// Hashtag is a tag in use and how many posts and comments use it.
type Hashtag struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// HashtagList is GET /hashtags.
type HashtagList struct {
	Tags []Hashtag `json:"tags"`
}

// Hashtags suggests the hashtags used in the feeds of the forums the viewer
// can read that match prefix (the last word as a prefix, one typo in
// longer words), most used first, adding up each name's uses over those
// forums. Admin channels' tags are not counted (searchindex).
func (q *Queries) Hashtags(ctx context.Context, v auth.Caller, prefix string) (HashtagList, error) {
	list := HashtagList{Tags: []Hashtag{}}
	if utf8.RuneCountInString(prefix) > MaxText {
		return list, apperr.Invalid(map[string]string{"q": fmt.Sprintf("must be at most %d characters", MaxText)})
	}
	if prefix != "" && !index.HasWords(prefix) {
		return list, nil
	}
	channels, err := access.ReadableChannels(ctx, q.db.Pool, v.UserID, v.Role)
	if err != nil {
		return list, err
	}
	forums := []string{}
	for _, c := range channels {
		if c.Kind == "main" {
			forums = append(forums, c.SeriesID.String())
		}
	}
	if len(forums) == 0 {
		return list, nil
	}
	res, err := q.store.Hashtags().Search(ctx, index.Query{
		Text: prefix, Limit: hashtagDocs,
		Filter: index.Filter{index.In("forumId", forums...)},
		Sort:   []index.Sort{{Field: "count", Desc: true}},
	})
	if err != nil {
		return list, err
	}
	byName := map[string]*Hashtag{}
	for _, h := range res.Hits {
		k := strings.ToLower(h.Name)
		if t, ok := byName[k]; ok {
			t.Count += h.Count
			if h.Name < t.Name {
				t.Name = h.Name
			}
			continue
		}
		byName[k] = &Hashtag{Name: h.Name, Count: h.Count}
	}
	for _, t := range byName {
		list.Tags = append(list.Tags, *t)
	}
	sort.Slice(list.Tags, func(i, j int) bool {
		a, b := list.Tags[i], list.Tags[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		return strings.ToLower(a.Name) < strings.ToLower(b.Name)
	})
	if len(list.Tags) > MaxHashtags {
		list.Tags = list.Tags[:MaxHashtags]
	}
	return list, nil
}
