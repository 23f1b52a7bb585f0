package insights

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"agora/analytics"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/jsontime"
	"agora/internal/plumbing/paging"
)

// ListRequest is a list's forum, period and page.
type ListRequest struct {
	Request
	Page paging.Request
}

// AskedQuestion is an entry of the asked questions list.
type AskedQuestion struct {
	ThreadID uuid.UUID `json:"threadId"`
	// Question is the post's text as plain text (mentions as names).
	Question string `json:"question"`
	// CreatorID is null for an anonymous question: the warehouse never
	// learns who asked it.
	CreatorID *uuid.UUID    `json:"creatorId"`
	As        string        `json:"as"`
	CreatedOn jsontime.Time `json:"createdOn"`
}

// AskedQuestionList is GET /list/asked-questions/{seriesId}.
type AskedQuestionList struct {
	Freshness
	Total          int             `json:"total"`
	TotalAnonymous int             `json:"totalAnonymous"`
	Result         []AskedQuestion `json:"result"`
}

// InlineQuestion is an entry of the inline questions list: a comment or a
// reply asking questions.
type InlineQuestion struct {
	ThreadID  uuid.UUID     `json:"threadId"`
	MessageID uuid.UUID     `json:"messageId"`
	Questions []string      `json:"questions"`
	CreatorID uuid.UUID     `json:"creatorId"`
	CreatedOn jsontime.Time `json:"createdOn"`
}

// InlineQuestionList is GET /list/inline-questions/{seriesId}; Total
// counts the messages.
type InlineQuestionList struct {
	Freshness
	Total  int              `json:"total"`
	Result []InlineQuestion `json:"result"`
}

// AISearch is an entry of the AI searches list: one question asked. Who
// asked is not shown.
type AISearch struct {
	SearchID  uuid.UUID     `json:"searchId"`
	Question  string        `json:"question"`
	CreatedOn jsontime.Time `json:"createdOn"`
}

// AISearchList is GET /list/ai-searches/{seriesId}.
type AISearchList struct {
	Freshness
	Total  int        `json:"total"`
	Result []AISearch `json:"result"`
}

// list reads one page of kind, newest first.
func (q *Queries) list(ctx context.Context, r ListRequest, kind string) (Freshness, ListPage, error) {
	bad := apperr.Fields{}
	r.Page.Check(bad, MaxPageSize)
	f, err := q.open(ctx, r.Request, bad)
	if err != nil {
		return Freshness{}, ListPage{}, err
	}
	fresh, err := q.freshness(ctx, f)
	if err != nil {
		return Freshness{}, ListPage{}, err
	}
	p, err := q.store.List(ctx, f.scope(), kind, r.Page.Offset(), r.Page.PageSize)
	return fresh, p, err
}

// ListAskedQuestions lists the period's question posts.
func (q *Queries) ListAskedQuestions(ctx context.Context, r ListRequest) (AskedQuestionList, error) {
	fresh, p, err := q.list(ctx, r, analytics.KindQuestion)
	if err != nil {
		return AskedQuestionList{}, err
	}
	out := AskedQuestionList{Freshness: fresh, Total: p.Total, TotalAnonymous: p.Anonymous, Result: []AskedQuestion{}}
	for _, it := range p.Items {
		a := AskedQuestion{ThreadID: it.ObjectID, Question: it.Detail, As: "author", CreatedOn: jsontime.Of(it.Occurred)}
		if it.Anonymous {
			a.As = "anonymous"
		} else if it.ActorID != uuid.Nil {
			id := it.ActorID
			a.CreatorID = &id
		}
		out.Result = append(out.Result, a)
	}
	return out, nil
}

// ListInlineQuestions lists the period's comments and replies that ask
// questions.
func (q *Queries) ListInlineQuestions(ctx context.Context, r ListRequest) (InlineQuestionList, error) {
	fresh, p, err := q.list(ctx, r, analytics.KindInlineQuestion)
	if err != nil {
		return InlineQuestionList{}, err
	}
	out := InlineQuestionList{Freshness: fresh, Total: p.Total, Result: []InlineQuestion{}}
	for _, it := range p.Items {
		out.Result = append(out.Result, InlineQuestion{
			ThreadID: it.PostID, MessageID: it.ObjectID, Questions: strings.Split(it.Detail, "\n"),
			CreatorID: it.ActorID, CreatedOn: jsontime.Of(it.Occurred),
		})
	}
	return out, nil
}

// ListAISearches lists the questions asked of the forum's AI search in the
// period.
func (q *Queries) ListAISearches(ctx context.Context, r ListRequest) (AISearchList, error) {
	fresh, p, err := q.list(ctx, r, analytics.KindAISearch)
	if err != nil {
		return AISearchList{}, err
	}
	out := AISearchList{Freshness: fresh, Total: p.Total, Result: []AISearch{}}
	for _, it := range p.Items {
		out.Result = append(out.Result, AISearch{SearchID: it.PostID, Question: it.Detail, CreatedOn: jsontime.Of(it.Occurred)})
	}
	return out, nil
}

// AdminChannel is GET /series/{seriesId}/admin-channel, whose answer names
// the channel `_id` (spec 002 §7), as the client reads it.
type AdminChannel struct {
	ID *uuid.UUID `json:"_id"`
}

// AdminChannel is the forum's admin channel, for the panel's feed; it
// needs no warehouse.
func (q *Queries) AdminChannel(ctx context.Context, c auth.Caller, seriesID uuid.UUID) (AdminChannel, error) {
	f, err := q.admin(ctx, c, seriesID)
	if err != nil {
		return AdminChannel{}, err
	}
	if !f.hasAdmin {
		return AdminChannel{}, nil
	}
	id := f.admin
	return AdminChannel{ID: &id}, nil
}
