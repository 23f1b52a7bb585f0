package search

import (
	"encoding/hex"
	"fmt"
	"strings"
)

// Member is a member profile as the member search sees it. ID is the
// profile's id; the id lists say where the member belongs, so a search is
// filtered to a community or a forum with In.
type Member struct {
	ID        string `json:"id"`
	UserID    string `json:"userId"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	// FullName is "first last", so that "ada love" finds Ada Lovelace.
	FullName string `json:"fullName"`
	Email    string `json:"email"`
	JobTitle string `json:"jobTitle"`
	Company  string `json:"company"`
	// SortName is the lower-cased "last first", the alphabetical order of
	// member lists.
	SortName        string   `json:"sortName"`
	OrganizationIDs []string `json:"organizationIds"`
	CommunityIDs    []string `json:"communityIds"`
	ForumIDs        []string `json:"forumIds"`
	// AdminOf holds the ids of the communities and forums the member
	// administers; ExpertIn the forums where the member is an expert.
	AdminOf  []string `json:"adminOf"`
	ExpertIn []string `json:"expertIn"`
}

// DocID is the member's profile id.
func (m Member) DocID() string { return m.ID }

// MemberNameFields are what a search of members by name reads: first, last
// or full name (never the e-mail, which only admins may search by).
var MemberNameFields = []string{"fullName", "firstName", "lastName"}

// CommunityMembersNamed is the query of the member index for a community's
// people (members, admins and the invited) by name, best match first: the
// community's member list with a keyword and the dialogs' quick find.
func CommunityMembersNamed(text, communityID string, limit, offset int) Query {
	return Query{Text: text, Fields: MemberNameFields, Limit: limit, Offset: offset, Filter: Filter{In("communityIds", communityID)}}
}

// DocIDs are the ids of docs, in their order.
func DocIDs[D Document](docs []D) []string {
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = d.DocID()
	}
	return out
}

// Hashtag is one hashtag's use in one forum: ID is HashtagID(forum, name).
type Hashtag struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	ForumID     string `json:"forumId"`
	CommunityID string `json:"communityId"`
	// Count is how many posts of the forum use it.
	Count int `json:"count"`
}

// DocID is the forum and name pair.
func (h Hashtag) DocID() string { return h.ID }

// HashtagID is the id of a hashtag's document in a forum. Names are compared
// lower-cased, as the search compares them, and hex-encoded: a hashtag may
// hold any letter, and Meilisearch ids only a-z, A-Z, 0-9, - and _.
func HashtagID(forumID, name string) string {
	return forumID + "_" + hex.EncodeToString([]byte(strings.ToLower(name)))
}

// KindMinutes is the Kind of a Meet Up's minutes: a Post of their own,
// with no channel and the Meet Up's creator and invitees as its readers,
// whose ThreadID is the Meet Up post (package searchindex writes them).
const KindMinutes = "minutes"

// Post is a thread, a comment or a reply (or a chat message). Anonymous
// posts have no AuthorID: an anonymous author is never indexed.
type Post struct {
	ID          string `json:"id"`
	Kind        string `json:"kind"`
	ThreadID    string `json:"threadId"`
	ParentID    string `json:"parentId"`
	ChannelID   string `json:"channelId"`
	ForumID     string `json:"forumId"`
	CommunityID string `json:"communityId"`
	AuthorID    string `json:"authorId"`
	// Text is the post's words, with mentions as display names.
	Text     string   `json:"text"`
	Hashtags []string `json:"hashtags"`
	// ReaderIDs names who may read the post beyond the channel's members
	// (the two people of a private chat, for one); with ChannelID it is what
	// ReadableBy tests.
	ReaderIDs []string `json:"readerIds"`
	// CreatedAt is milliseconds since the Unix epoch: sortable by number in
	// both engines (a timestamp string would not be, in Meilisearch).
	CreatedAt int64 `json:"createdAt"`
	// Vector is the post's text as an Embedder saw it, for a Query.Vector
	// search; nil for a post indexed without one. It is written with the
	// document but never comes back in hits (nothing that reads hits needs
	// it, and it is larger than the rest of the document): the engines keep
	// it apart from the document's JSON.
	Vector []float32 `json:"-"`
}

// DocID is the post's id.
func (p Post) DocID() string { return p.ID }

// Thread is the thread the post belongs to: its own id for a thread.
func (p Post) Thread() string {
	if p.ThreadID != "" {
		return p.ThreadID
	}
	return p.ID
}

func (p Post) vector() []float32 { return p.Vector }

// Peer is someone a member may chat with privately: they share a community.
type Peer struct {
	ID        string `json:"id"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Name      string `json:"name"`
	Company   string `json:"company"`
	JobTitle  string `json:"jobTitle"`
	// Expertise holds the names of the forums the peer is an expert in.
	Expertise []string `json:"expertise"`
	// Tags holds interest tags and tags.
	Tags         []string `json:"tags"`
	SortName     string   `json:"sortName"`
	CommunityIDs []string `json:"communityIds"`
}

// DocID is the peer's user id.
func (p Peer) DocID() string { return p.ID }

// PeerCriterionFields maps a criterion of the private chat search (spec 002
// §5: all, name, org, job, expertise, tags) to the fields it searches, for
// Query.Fields.
func PeerCriterionFields(criterion string) ([]string, error) {
	switch criterion {
	case "", "all":
		return nil, nil
	case "name":
		return []string{"name", "firstName", "lastName"}, nil
	case "org":
		return []string{"company"}, nil
	case "job":
		return []string{"jobTitle"}, nil
	case "expertise":
		return []string{"expertise"}, nil
	case "tags":
		return []string{"tags"}, nil
	}
	return nil, fmt.Errorf("%w: unknown peer criterion %q", ErrBadQuery, criterion)
}

// schema is what both adapters need to know of an index: which fields are
// searched (in order of importance), filtered and sorted.
type schema struct {
	// name is the index's name without the store's prefix.
	name string
	// searchable fields, most important first (Meilisearch's attribute
	// ranking rule; boosts in the embedded engine).
	searchable []string
	// filterable fields hold strings or lists of strings.
	filterable []string
	// sortable fields: numeric ones are listed in numeric too.
	sortable []string
	numeric  []string
	// scoped means every search needs a ReadableBy clause.
	scoped bool
	// vectors means documents may carry a vector (see vectored) and
	// queries may ask for the nearest ones; newest is the numeric sortable
	// field whose highest values are the newest documents, which the
	// embedded engine ranks first of two as near.
	vectors bool
	newest  string
}

// vectored is a document that may carry a vector.
type vectored interface {
	vector() []float32
}

var (
	memberSchema = &schema{
		name:       "members",
		searchable: []string{"fullName", "firstName", "lastName", "email", "jobTitle", "company"},
		filterable: []string{"id", "userId", "organizationIds", "communityIds", "forumIds", "adminOf", "expertIn"},
		sortable:   []string{"sortName"},
	}
	hashtagSchema = &schema{
		name:       "hashtags",
		searchable: []string{"name"},
		filterable: []string{"forumId", "communityId"},
		sortable:   []string{"count", "name"},
		numeric:    []string{"count"},
	}
	postSchema = &schema{
		name:       "posts",
		searchable: []string{"text", "hashtags"},
		filterable: []string{"kind", "threadId", "parentId", "channelId", "forumId", "communityId", "authorId", "hashtags", "readerIds"},
		sortable:   []string{"createdAt"},
		numeric:    []string{"createdAt"},
		scoped:     true,
		vectors:    true,
		newest:     "createdAt",
	}
	peerSchema = &schema{
		name:       "peers",
		searchable: []string{"name", "firstName", "lastName", "company", "jobTitle", "expertise", "tags"},
		filterable: []string{"id", "communityIds"},
		sortable:   []string{"sortName"},
	}
)

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
