// Package search is the read side of Agora's searches that the search read
// store answers: the member search of the share and access dialogs, the
// mention candidates of a forum, the hashtag suggestions and the private
// chat's peers.
//
// The store says which documents match and in what order; rights are
// decided here from Postgres before the store is asked (a search is always
// filtered to what the caller may see), and what a result shows is read
// from Postgres by id, so a result is as current as the rows.
package search

import (
	"context"
	"fmt"
	"unicode/utf8"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	index "agora/search"
)

// MaxText bounds what a search box sends, in runes.
const MaxText = 100

// Queries answer the searches from the store and Postgres.
type Queries struct {
	store index.Store
	db    *db.DB
}

// New returns the searches over store and d.
func New(store index.Store, d *db.DB) (*Queries, error) {
	if store == nil || d == nil {
		return nil, fmt.Errorf("search.New: nil dependency")
	}
	return &Queries{store: store, db: d}, nil
}

// Person is a member as a search result shows them.
type Person struct {
	ID        uuid.UUID  `json:"id"`
	UserID    *uuid.UUID `json:"userId"`
	FirstName string     `json:"firstName"`
	LastName  string     `json:"lastName"`
	Avatar    *string    `json:"avatar"`
	JobTitle  string     `json:"jobTitle"`
	Company   string     `json:"company"`
}

// checkText adds the problems of a search box's text and limit to f.
func checkText(f apperr.Fields, text string, limit int) {
	if utf8.RuneCountInString(text) > MaxText {
		f.Add("q", fmt.Sprintf("must be at most %d characters", MaxText))
	}
	if limit < 1 || limit > 50 {
		f.Add("limit", "must be 1 to 50")
	}
}

// people reads the profiles of ids, in that order.
func (q *Queries) people(ctx context.Context, ids []string) ([]Person, error) {
	out := []Person{}
	if len(ids) == 0 {
		return out, nil
	}
	p, u := table.Profiles.AS("p"), table.Users.AS("u")
	rows, err := db.Query(ctx, q.db.Pool, SELECT(p.ID, p.UserID, COALESCE(u.FirstName, p.FirstName), COALESCE(u.LastName, p.LastName),
		COALESCE(u.Avatar, p.Avatar), COALESCE(u.JobTitle, p.JobTitle), COALESCE(u.Company, p.Company)).
		FROM(p.LEFT_JOIN(u, u.ID.EQ(p.UserID))).
		WHERE(db.Any(p.ID, ids)).
		ORDER_BY(db.UUIDPosition(ids, p.ID)))
	if err != nil {
		return nil, fmt.Errorf("search: people: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Person, error) {
		var p Person
		return p, r.Scan(&p.ID, &p.UserID, &p.FirstName, &p.LastName, &p.Avatar, &p.JobTitle, &p.Company)
	})
}
