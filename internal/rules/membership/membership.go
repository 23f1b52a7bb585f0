// Package membership is what forums and communities share in managing who
// belongs to them (spec 000 §2.7, §4; spec 001 §4–§6): the staged
// assignments a share dialog sends, the list of people an invitation names
// and the mailing of those who have no account yet, the person fields of a
// profile and its account, which of an organization's people a
// community's share dialog lists, and a membership's complimentary access. The forum and community commands and
// queries use it, so that each rule is written once.
package membership

import (
	"context"
	"errors"
	"fmt"
	"strings"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
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

// The states of a person of a list (organization profiles, a community's
// members and share dialog, a forum's members and Manage Access), which
// InvitationStatus decides for all of them.
const (
	// StatusActive: the profile is joined to an account.
	StatusActive = "active"
	// StatusInvited: no account yet, and an invitation was mailed.
	StatusInvited = "invited"
	// StatusNotInvited: no account, and no invitation was ever mailed (an
	// import, or an add without one, mails nobody).
	StatusNotInvited = "notInvited"
	// StatusPending is spec 000's name of StatusInvited in a community's
	// lists (assignmentStatus: "pending means a pending invitation").
	StatusPending = "pending"
)

// InvitationStatus is where the person of profile p stands: active once
// joined to an account, then invited once an invitation was mailed (Invite
// issues its token in the same transaction as the mail, and tokens are
// kept), notInvited until then. invited is the invited state's name in the
// list's contract (StatusInvited, or StatusPending in a community's).
func InvitationStatus(p *table.ProfilesTable, invited string) StringExpression {
	tk := table.Tokens
	mailed := EXISTS(SELECT(tk.ID).FROM(tk).WHERE(tk.ProfileID.EQ(p.ID).AND(tk.Kind.EQ(String("invitation")))))
	return StringExp(CASE().WHEN(p.UserID.IS_NOT_NULL()).THEN(String(StatusActive)).
		WHEN(mailed).THEN(String(invited)).ELSE(String(StatusNotInvited)))
}

// Into is where an invitation leads: the organization whose profile it
// joins, and the community or forum it was sent from, where the person
// lands after signing up (nil: the organization's home).
type Into struct {
	Organization uuid.UUID
	Community    *uuid.UUID
	Forum        *uuid.UUID
}

// Invitation is one invitation to mail.
type Invitation struct {
	Into
	ProfileID uuid.UUID
	Email     string
	FirstName string
	// Inviter is the inviting member's name; Place names where the
	// person is invited (the forum, community or organization).
	Inviter string
	Place   string
}

// Inviter issues and mails invitations inside a transaction, in the
// actor's name, within the mail limits (account.Service.Invite): already
// counts those not mailed because they were mailed one a moment ago, and a
// call past the actor's limit is an error that sends nothing.
type Inviter interface {
	Invite(ctx context.Context, q db.Querier, actor uuid.UUID, invs []Invitation) (already int, err error)
}

// Invited counts what an invitation call did.
type Invited struct {
	// Invited are the people without an account, mailed an invitation.
	Invited int `json:"invited"`
	// Skipped already have an account: nothing is sent.
	Skipped int `json:"skipped"`
	// AlreadyInvited were mailed an invitation within the resend window
	// (AGORA_INVITATION_RESEND_AFTER): it is not mailed again, and the
	// link it holds still works.
	AlreadyInvited int `json:"alreadyInvited"`
}

// InvitePending mails an invitation into into, in the actor's name, to
// each of the profiles ids who has no account yet, and skips the others.
// The caller has checked that the actor may invite them; every id must be
// a profile of the organization.
func InvitePending(ctx context.Context, q db.Querier, inviter Inviter, actorID uuid.UUID, into Into, ids []uuid.UUID) (Invited, error) {
	var out Invited
	actor, place, err := names(ctx, q, actorID, into)
	if err != nil {
		return out, err
	}
	type person struct {
		ID        uuid.UUID
		Email     string
		FirstName string
		Joined    bool
	}
	p := table.Profiles
	people, err := db.All[person](ctx, q, SELECT(p.ID.AS("id"), p.Email.AS("email"), p.FirstName.AS("first_name"),
		p.UserID.IS_NOT_NULL().AS("joined")).
		FROM(p).WHERE(db.Any(p.ID, ids).AND(p.OrganizationID.EQ(UUID(into.Organization)))).ORDER_BY(p.ID))
	if err != nil {
		return out, fmt.Errorf("membership: invite: %w", err)
	}
	if len(people) != len(ids) {
		return out, apperr.Invalid(map[string]string{"profileIds": "every person must be a person of the organization"})
	}
	var invs []Invitation
	for _, pe := range people {
		if pe.Joined {
			out.Skipped++
			continue
		}
		invs = append(invs, Invitation{Into: into, ProfileID: pe.ID, Email: pe.Email, FirstName: pe.FirstName, Inviter: actor, Place: place})
	}
	already, err := inviter.Invite(ctx, q, actorID, invs)
	if err != nil {
		return Invited{}, fmt.Errorf("membership: invite: %w", err)
	}
	out.AlreadyInvited, out.Invited = already, len(invs)-already
	return out, nil
}

// InviteProfile mails one invitation into into, in the actor's name, to
// the profile id at email, whether or not it has an account: a person
// added with an invitation asked for is told where they were added.
func InviteProfile(ctx context.Context, q db.Querier, inviter Inviter, actorID uuid.UUID, into Into, id uuid.UUID, email, firstName string) error {
	actor, place, err := names(ctx, q, actorID, into)
	if err != nil {
		return err
	}
	_, err = inviter.Invite(ctx, q, actorID, []Invitation{{Into: into, ProfileID: id, Email: email, FirstName: firstName, Inviter: actor, Place: place}})
	return err
}

// names are the actor's name and the name of where into leads: "Forum
// (Community)", "Community (Organization)" or "Organization".
func names(ctx context.Context, q db.Querier, actorID uuid.UUID, into Into) (actor, place string, err error) {
	u, o, c, s := table.Users, table.Organizations, table.Communities, table.Series
	community, forum := String(""), String("")
	if into.Community != nil {
		community = StringExp(SELECT(c.Name).FROM(c).WHERE(c.ID.EQ(UUID(*into.Community))))
	}
	if into.Forum != nil {
		forum = StringExp(SELECT(s.Name).FROM(s).WHERE(s.ID.EQ(UUID(*into.Forum))))
	}
	var org, cname, fname *string
	if err := db.QueryRow(ctx, q, SELECT(u.FirstName.CONCAT(String(" ")).CONCAT(u.LastName), o.Name, community, forum).
		FROM(u.CROSS_JOIN(o)).
		WHERE(u.ID.EQ(UUID(actorID)).AND(o.ID.EQ(UUID(into.Organization))))).Scan(&actor, &org, &cname, &fname); err != nil {
		return "", "", fmt.Errorf("membership: inviter: %w", err)
	}
	switch {
	case fname != nil && *fname != "" && cname != nil && *cname != "":
		place = *fname + " (" + *cname + ")"
	case cname != nil && *cname != "":
		place = *cname + " (" + *org + ")"
	default:
		place = *org
	}
	return strings.TrimSpace(actor), place, nil
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

// A Membership names one membership row of a community's or forum's
// memberships table: its table, its profile and complimentary-access
// (is_subscribed) columns, and the condition that picks the row.
type Membership struct {
	Table         Table
	ProfileID     ColumnString
	Complimentary ColumnBool
	Row           BoolExpression
}

// SetComplimentary gives (given) or takes the complimentary access of the
// membership m (access's billing rule: it spares its member the payment),
// in tx, once the caller is known to manage the place. The caller's own
// membership is ErrOwnAssignment; a row that does not exist is notFound,
// the place's own not-found error, so that a member cannot be probed.
func SetComplimentary(ctx context.Context, tx db.Querier, m Membership, callerID uuid.UUID, given bool, notFound error) error {
	p := table.Profiles
	var owner *uuid.UUID
	err := db.QueryRow(ctx, tx, SELECT(p.UserID).FROM(m.Table.INNER_JOIN(p, p.ID.EQ(m.ProfileID))).WHERE(m.Row)).Scan(&owner)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return notFound
	case err != nil:
		return fmt.Errorf("membership: complimentary: %w", err)
	case owner != nil && *owner == callerID:
		return ErrOwnAssignment
	}
	// Only a change is written: the change stream carries no row that
	// changed nothing.
	if _, err := db.Exec(ctx, tx, m.Table.UPDATE(m.Complimentary).SET(Bool(given)).
		WHERE(m.Row.AND(m.Complimentary.IS_DISTINCT_FROM(Bool(given))))); err != nil {
		return fmt.Errorf("membership: complimentary: %w", err)
	}
	return nil
}
