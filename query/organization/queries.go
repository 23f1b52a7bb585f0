// Package organization is the read side of organizations: the ones a user
// belongs to or manages, their people, and what the caller may manage.
package organization

import (
	"errors"
	"strings"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
)

// MaxPageSize is the largest page of the organization lists (spec 000 §9:
// lists load with pageSize 9999).
const MaxPageSize = 9999

// Queries reads organizations from Postgres.
type Queries struct {
	db *pgxpool.Pool
}

// New returns the organization queries over d.
func New(d *db.DB) (*Queries, error) {
	if d == nil || d.Pool == nil {
		return nil, errors.New("organization.New: nil dependency")
	}
	return &Queries{db: d.Pool}, nil
}

// sortOrder reads a sort parameter, "field" with an optional " asc" or
// " desc", among the fields a list knows (the first is the default).
func sortOrder(f apperr.Fields, v string, fields ...string) (field string, desc bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return fields[0], false
	}
	name, dir, _ := strings.Cut(v, " ")
	switch strings.TrimSpace(dir) {
	case "", "asc":
	case "desc":
		desc = true
	default:
		f.Add("sort", "must be a field with an optional asc or desc")
	}
	for _, known := range fields {
		if name == known {
			return name, desc
		}
	}
	f.Add("sort", "must be one of "+strings.Join(fields, ", "))
	return fields[0], false
}

// user and super are the caller as SQL values, for the access rules.
func user(c auth.Caller) (StringExpression, BoolExpression) {
	return UUID(c.UserID), Bool(c.Role == auth.RoleSuper)
}
