// Package membership is what forums and communities share in managing who
// belongs to them (spec 000 §2.7, §4; spec 001 §4–§6): the staged
// assignments a share dialog sends, the list of people an invitation names
// and the mailing of those who have no account yet, the person fields of a
// profile and its account, and which of an organization's people a
// community's share dialog lists. The forum and community commands and
// queries use it, so that each rule is written once.
package membership

import (
	"context"
	"fmt"
	"strings"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/apperr"
	"agora/internal/db"
	"agora/internal/db/gen/table"
)

// MaxAssignees bounds the people of one staged state or invitation.
const MaxAssignees = 10000

// ErrOwnAssignment is a change of the actor's own row: the share dialogs
// show the actor a label, not a menu.
var ErrOwnAssignment = apperr.New(apperr.BadInput, "ownAssignment", "you cannot change your own access")

// Staged is one staged assignment: a role for some people, or removal
// when RoleID is nil.
type Staged struct {
	RoleID      *string
	AssigneeIDs []string
}

// ParseStaged checks a staged state: roles that valid accepts (hint says
// which in the error), profile ids as UUIDs, each person once. It returns
// each person's role (nil: remove) and the people in the order named.
func ParseStaged(f apperr.Fields, items []Staged, valid func(roleID string) bool, hint string) (map[uuid.UUID]*string, []uuid.UUID) {
	roles := map[uuid.UUID]*string{}
	var order []uuid.UUID
	for i, it := range items {
		field := fmt.Sprintf("assignments[%d]", i)
		if it.RoleID != nil && !valid(*it.RoleID) {
			f.Add(field+".roleId", hint)
		}
		if len(it.AssigneeIDs) == 0 {
			f.Add(field+".assigneeIds", "must name at least one person")
		}
		for _, s := range it.AssigneeIDs {
			id, err := uuid.Parse(s)
			if err != nil {
				f.Add(field+".assigneeIds", "must be profile ids (UUIDs)")
				continue
			}
			if _, dup := roles[id]; dup {
				f.Add(field+".assigneeIds", "a person may be staged once only")
				continue
			}
			roles[id] = it.RoleID
			order = append(order, id)
		}
	}
	if len(order) > MaxAssignees {
		f.Add("assignments", fmt.Sprintf("must name at most %d people", MaxAssignees))
	}
	return roles, order
}

// ParseIDs reads the profile ids of an invitation (field names them): a
// missing list is a missing parameter; ids must be UUIDs, at least one and
// at most MaxAssignees, each counted once.
func ParseIDs(field string, raw []string) ([]uuid.UUID, error) {
	if raw == nil {
		return nil, apperr.MissingParameters(field)
	}
	f := apperr.Fields{}
	seen := map[uuid.UUID]bool{}
	var ids []uuid.UUID
	for _, s := range raw {
		id, err := uuid.Parse(s)
		if err != nil {
			f.Add(field, "must be profile ids (UUIDs)")
			continue
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		f.Add(field, "must name at least one person")
	}
	if len(ids) > MaxAssignees {
		f.Add(field, fmt.Sprintf("must name at most %d people", MaxAssignees))
	}
	return ids, f.Err()
}

// JoinStatus is the status of a membership given to the profile p: active
// when it has an account, pending (invited) otherwise.
func JoinStatus(p *table.ProfilesTable) StringExpression {
	return StringExp(CASE().WHEN(p.UserID.IS_NULL()).THEN(String("pending")).ELSE(String("active")))
}

// Inviter issues and mails an invitation inside a transaction
// (account.Service.Invite).
type Inviter interface {
	Invite(ctx context.Context, q db.Querier, profileID uuid.UUID, email, firstName, inviter, orgName string) error
}

// Invited counts what an invitation call did.
type Invited struct {
	// Invited are the people without an account, mailed an invitation.
	Invited int `json:"invited"`
	// Skipped already have an account: nothing is sent.
	Skipped int `json:"skipped"`
}

// InvitePending mails an invitation, in the actor's name and the
// organization's, to each of the profiles ids who has no account yet, and
// skips the others. The caller has checked that the actor may invite them.
func InvitePending(ctx context.Context, q db.Querier, inviter Inviter, actorID, orgID uuid.UUID, ids []uuid.UUID) (Invited, error) {
	var out Invited
	var actor, org string
	u, o, p := table.Users, table.Organizations, table.Profiles
	if err := db.QueryRow(ctx, q, SELECT(u.FirstName.CONCAT(String(" ")).CONCAT(u.LastName), o.Name).
		FROM(u.CROSS_JOIN(o)).
		WHERE(u.ID.EQ(UUID(actorID)).AND(o.ID.EQ(UUID(orgID))))).Scan(&actor, &org); err != nil {
		return out, fmt.Errorf("membership: invite: %w", err)
	}
	type person struct {
		ID        uuid.UUID
		Email     string
		FirstName string
		Joined    bool
	}
	people, err := db.All[person](ctx, q, SELECT(p.ID.AS("id"), p.Email.AS("email"), p.FirstName.AS("first_name"),
		p.UserID.IS_NOT_NULL().AS("joined")).
		FROM(p).WHERE(db.Any(p.ID, ids)).ORDER_BY(p.ID))
	if err != nil {
		return out, fmt.Errorf("membership: invite: %w", err)
	}
	for _, pe := range people {
		if pe.Joined {
			out.Skipped++
			continue
		}
		if err := inviter.Invite(ctx, q, pe.ID, pe.Email, pe.FirstName, strings.TrimSpace(actor), org); err != nil {
			return out, fmt.Errorf("membership: invite: %w", err)
		}
		out.Invited++
	}
	return out, nil
}

// Person is a person of a member list, as PersonColumns reads them; list
// entries embed it.
type Person struct {
	ID        uuid.UUID  `json:"id"`
	UserID    *uuid.UUID `json:"userId"`
	FirstName string     `json:"firstName"`
	LastName  string     `json:"lastName"`
	Email     string     `json:"email"`
	Avatar    *string    `json:"avatar"`
	JobTitle  string     `json:"jobTitle"`
	Company   string     `json:"company"`
}

// Scan are the scan destinations of PersonColumns, then more.
func (p *Person) Scan(more ...any) []any {
	return append([]any{&p.ID, &p.UserID, &p.FirstName, &p.LastName, &p.Email, &p.Avatar, &p.JobTitle, &p.Company}, more...)
}

// PersonColumns are a person's columns (id, userId, first and last name,
// email, avatar, job title, company) from the profile p, overridden by
// the account u's own once the profile is joined to one.
func PersonColumns(p *table.ProfilesTable, u *table.UsersTable) []Projection {
	return []Projection{p.ID, p.UserID, COALESCE(u.FirstName, p.FirstName), COALESCE(u.LastName, p.LastName),
		COALESCE(u.Email, p.Email), COALESCE(u.Avatar, p.Avatar), COALESCE(u.JobTitle, p.JobTitle), COALESCE(u.Company, p.Company)}
}

// ByName orders people by last name, first name, then profile.
func ByName(p *table.ProfilesTable, u *table.UsersTable) []OrderByClause {
	return []OrderByClause{LOWER(StringExp(COALESCE(u.LastName, p.LastName))), LOWER(StringExp(COALESCE(u.FirstName, p.FirstName))), p.ID}
}
