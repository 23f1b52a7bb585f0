package search

import (
	"context"

	"github.com/google/uuid"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/paging"
	"agora/internal/rules/access"
	index "agora/search"
)

// MemberSearch is GET /communities/{communityId}/member-search.
type MemberSearch struct {
	auth.Caller
	CommunityID uuid.UUID
	Text        string
	// Limit is how many matches to show: the dialogs show 5.
	Limit int
}

// Members finds the community's members by first, last or full name, best
// match first, for its active members and those who administer it.
func (q *Queries) Members(ctx context.Context, in MemberSearch) (paging.Page[Person], error) {
	f := apperr.Fields{}
	checkText(f, in.Text, in.Limit)
	if err := f.Err(); err != nil {
		return paging.Page[Person]{}, err
	}
	// One who may not read the community is told it does not exist
	// (issue 31, G7: a 403 told a hidden community from a missing one).
	if _, err := access.ReadCommunity(ctx, q.db.Pool, in.UserID, in.Role, in.CommunityID); err != nil {
		return paging.Page[Person]{}, err
	}
	page := paging.Page[Person]{Results: []Person{}}
	if in.Text != "" && !index.HasWords(in.Text) {
		return page, nil
	}
	mq := index.CommunityMembersNamed(in.Text, in.CommunityID.String(), in.Limit, 0)
	mq.Sort = sortByName(in.Text)
	res, err := q.store.Members().Search(ctx, mq)
	if err != nil {
		return page, err
	}
	if page.Results, err = q.people(ctx, index.DocIDs(res.Hits)); err != nil {
		return page, err
	}
	page.Total = res.Total
	return page, nil
}

// Candidate is someone who may be mentioned (spec 001 §3).
type Candidate struct {
	UserID    uuid.UUID `json:"userId"`
	FirstName string    `json:"firstName"`
	LastName  string    `json:"lastName"`
	Avatar    *string   `json:"avatar"`
	JobTitle  string    `json:"jobTitle"`
	Company   string    `json:"company"`
}

// MentionSearch is GET /series/{id}/mention-candidates.
type MentionSearch struct {
	auth.Caller
	SeriesID uuid.UUID
	Text     string
	Limit    int
}

// MentionCandidates finds the forum's members with an account by name, for
// the forum's readers: a mention names a user.
func (q *Queries) MentionCandidates(ctx context.Context, in MentionSearch) (paging.Page[Candidate], error) {
	f := apperr.Fields{}
	checkText(f, in.Text, in.Limit)
	if err := f.Err(); err != nil {
		return paging.Page[Candidate]{}, err
	}
	if _, err := access.ReadForum(ctx, q.db.Pool, in.UserID, in.Role, in.SeriesID); err != nil {
		return paging.Page[Candidate]{}, err
	}
	page := paging.Page[Candidate]{Results: []Candidate{}}
	if in.Text != "" && !index.HasWords(in.Text) {
		return page, nil
	}
	res, err := q.store.Members().Search(ctx, index.Query{
		Text: in.Text, Fields: index.MemberNameFields, Limit: in.Limit,
		Filter: index.Filter{index.In("forumIds", in.SeriesID.String()), index.NotIn("userId", "")},
		Sort:   sortByName(in.Text),
	})
	if err != nil {
		return page, err
	}
	people, err := q.people(ctx, index.DocIDs(res.Hits))
	if err != nil {
		return page, err
	}
	for _, p := range people {
		if p.UserID != nil { // the index is a moment behind a profile's user
			page.Results = append(page.Results, Candidate{UserID: *p.UserID, FirstName: p.FirstName, LastName: p.LastName,
				Avatar: p.Avatar, JobTitle: p.JobTitle, Company: p.Company})
		}
	}
	page.Total = res.Total
	return page, nil
}

// sortByName orders a list without text by name; text orders by relevance.
func sortByName(text string) []index.Sort {
	if text != "" {
		return nil
	}
	return []index.Sort{{Field: "sortName"}}
}
