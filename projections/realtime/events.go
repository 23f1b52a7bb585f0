package realtime

import (
	"fmt"
	"reflect"
	"sort"

	"github.com/google/uuid"

	"agora/live"
	"agora/projections/change"
)

// The event types the projection emits.
const (
	UserUpdated            = "user.updated"
	UserConnected          = "user.connected"
	UserDisconnected       = "user.disconnected"
	UserStatus             = "user.status"
	CommunityCreated       = "community.created"
	CommunityUpdated       = "community.updated"
	CommunityDeleted       = "community.deleted"
	CommunityMembersRemove = "community.members.removed"
	SeriesDeleted          = "series.deleted"
	SeriesMembersRemoved   = "series.members.removed"
	// SeriesMembersAdded tells a member that a forum is theirs now (a
	// membership made active: assigned, or an open forum of their
	// community, migration 0025), so that their home page and community
	// page show it without a reload.
	SeriesMembersAdded  = "series.members.added"
	OrganizationCreated = "organization.created"
	OrganizationUpdated = "organization.updated"
	OrganizationDeleted = "organization.deleted"
)

// Event is one live event and who may receive it.
type Event struct {
	// Type is the event type ("user.updated").
	Type string
	// ContextKey routes it in the browser: "type:id" ("user:<id>").
	ContextKey string
	// Payload is data.payload.
	Payload any
	// To are the audiences whose union may read the event.
	To []Audience
	// Except is a member not told even when in an audience: a member is
	// not told of their own presence.
	Except uuid.UUID
	// If, when set, must hold when the event is delivered.
	If *Condition
}

// AudienceKind says who an Audience is.
type AudienceKind int

// The audiences.
const (
	// ReadersOfUser are the members who may read the user's profile
	// (internal/rules/access's PersonReader, the rule the profile reads
	// ask): the user, members with an active membership in a community the
	// user has a membership in, admins of an organization the user has a
	// profile in, and super users.
	ReadersOfUser AudienceKind = iota + 1
	// CommunityMembers are the active members of a community.
	CommunityMembers
	// SeriesMembers are the active members of a forum.
	SeriesMembers
	// UserOfProfile is the person of a profile (none before they register).
	UserOfProfile
	// ChannelReaders are those who may read the posts of a channel, as
	// internal/rules/access decides: for a forum's main channel its readers (its
	// active members and those who administer it), for its admin channel
	// those who administer it alone. A channel of another kind has none
	// until its kind says who reads it.
	ChannelReaders
	// ThreadReaders are the ChannelReaders of a post's channel: nobody once
	// the post is gone.
	ThreadReaders
	// OrganizationMembers are the users with a profile in an organization.
	OrganizationMembers
	// SuperUsers are every super user (the ID is unused).
	SuperUsers
	// FormerMember is a user (by user id) who is not a super user: the
	// person of a profile that is gone, whom no other audience names any
	// more; super users hear of an organization's end from the
	// organization itself.
	FormerMember
	// OrganizationAdmins are those who manage every community of an
	// organization without being its members: the organization's admins
	// and super users (internal/rules/access's CommunityRules).
	OrganizationAdmins
	// PeersOfUser are the user's peers (internal/rules/access's PeersOf: those
	// with an active membership of a community the user is an active
	// member of), the user aside: those who see the user's status in
	// their peers list.
	PeersOfUser
	// UserOfProfileUnlessManager is the person of a profile unless they are
	// among the OrganizationAdmins of the profile's organization: a
	// community's deletion reaches those from the community itself, so a
	// membership's deletion tells the members who do not manage it, and
	// each person hears of it once.
	UserOfProfileUnlessManager
	// PrivateChannelMembers are who read a chat channel
	// (access.ChannelReaders): a private channel's two members, or those
	// who may join the Meet Up of a Meet Up's chat.
	PrivateChannelMembers
	// PrivateMessageMembers are the PrivateChannelMembers of a private
	// message's channel: nobody once the message is gone.
	PrivateMessageMembers
	// TheUser is the user (by user id) alone.
	TheUser
	// MeetingAudience are those who hear a Meet Up's events (by roomId):
	// its forum's readers for an open one; its creator, its invitees and
	// those who administer the forum for a private one.
	MeetingAudience
	// ForumReaders are the readers of a forum: its active members and
	// those who administer it.
	ForumReaders
)

// Audience is a set of members, named by kind and the id it is about.
type Audience struct {
	Kind AudienceKind
	ID   uuid.UUID
}

// Condition is "the row ID of Table exists" (or, with Exists false, that
// it does not): a membership deleted with its community is a deletion of
// the community for its member, one deleted alone a member removed.
type Condition struct {
	Table  string // "communities", "series", "replies" or "organizations"
	ID     uuid.UUID
	Exists bool
}

// Encode is the frame of e as the hub sends it (live.Message).
func (e Event) Encode() ([]byte, error) { return live.Encode(e.Type, e.ContextKey, e.Payload) }

// mapper turns one change of its table into events.
type mapper func(c change.Change) ([]Event, error)

// mappers are the tables the projection reacts to. Snapshot reads and
// truncates never reach them. Tables whose changes need no live event yet
// (series: a forum's deletion reaches its members through their
// memberships) are left out so that the node does not read their topics
// for nothing; of profiles only the deletions count (a joined person's
// fields live in users).
var mappers = map[string]mapper{
	"public.users":                 userEvents,
	"public.communities":           communityEvents,
	"public.community_memberships": communityMembershipEvents,
	"public.series_memberships":    seriesMembershipEvents,
	"public.online_users":          presenceEvents,
	"public.threads":               threadEvents,
	"public.replies":               replyEvents,
	"public.reactions":             reactionEvents,
	"public.organizations":         organizationEvents,
	"public.profiles":              profileEvents,
	// Private chat (chat.go).
	"public.private_messages":          privateMessageEvents,
	"public.private_message_reactions": privateReactionEvents,
	"public.channel_members":           channelMemberEvents,
	"public.user_personalization":      personalizationEvents,
	// Notifications (notifications.go).
	"public.notifications": notificationEvents,
	// Meet Ups (meetup.go).
	"public.meetings":         meetingEvents,
	"public.meeting_invitees": inviteeEvents,
	// Subscriptions (billing.go).
	"public.subscriptions": subscriptionEvents,
}

// Tables are the tables the projection reads, sorted.
func Tables() []string {
	ts := make([]string, 0, len(mappers))
	for t := range mappers {
		ts = append(ts, t)
	}
	sort.Strings(ts)
	return ts
}

// Events maps a change to the live events it makes; a table without a
// mapper, a snapshot read and a truncate make none.
func Events(c change.Change) ([]Event, error) {
	if c.Op == change.Read || c.Op == change.Truncate {
		return nil, nil
	}
	m, ok := mappers[c.QualifiedTable()]
	if !ok {
		return nil, nil
	}
	return m(c)
}

// PublicUser is what a user.updated event shows of a person: the fields a
// peer sees in a member list, never the e-mail or credentials.
type PublicUser struct {
	ID        uuid.UUID `json:"id"`
	FirstName string    `json:"firstName"`
	LastName  string    `json:"lastName"`
	Avatar    *string   `json:"avatar"`
	JobTitle  string    `json:"jobTitle"`
	Company   string    `json:"company"`
}

func userEvents(c change.Change) ([]Event, error) {
	if c.Op != change.Update {
		return nil, nil // a registration or a deletion is not a user.updated
	}
	var after PublicUser
	if err := c.After.Scan(&after); err != nil {
		return nil, fmt.Errorf("realtime: users: %w", err)
	}
	if c.Before != nil {
		var before PublicUser
		if err := c.Before.Scan(&before); err == nil && reflect.DeepEqual(before, after) {
			return nil, nil // a password or e-mail change: nothing a peer sees
		}
	}
	return []Event{{
		Type: UserUpdated, ContextKey: "user:" + after.ID.String(), Payload: after,
		To: []Audience{{ReadersOfUser, after.ID}},
	}}, nil
}

// PublicCommunity is what community.created and community.updated show.
type PublicCommunity struct {
	ID             uuid.UUID `json:"id"`
	OrganizationID uuid.UUID `json:"organizationId"`
	Name           string    `json:"name"`
	Description    string    `json:"description"`
	Image          *string   `json:"image"`
	Video          *string   `json:"video"`
	VideoCover     *string   `json:"videoCover"`
}

// communityEvents: a community created or changed is told to its members
// and to those who manage it without being members (the Manage
// Communities dialog lists it for them). A deleted one is told to the
// latter here; its other members are told by their memberships' own
// deletions (communityMembershipEvents), since the memberships are gone by
// the time the change is consumed.
func communityEvents(c change.Change) ([]Event, error) {
	row := c.After
	if c.Op == change.Delete {
		row = c.Before
	}
	var after PublicCommunity
	if err := row.Scan(&after); err != nil {
		return nil, fmt.Errorf("realtime: communities: %w", err)
	}
	key := "community:" + after.ID.String()
	managers := Audience{OrganizationAdmins, after.OrganizationID}
	switch c.Op {
	case change.Create:
		return []Event{{Type: CommunityCreated, ContextKey: key, Payload: after, To: []Audience{{CommunityMembers, after.ID}, managers}}}, nil
	case change.Delete:
		return []Event{{Type: CommunityDeleted, ContextKey: key, Payload: Deleted{after.ID}, To: []Audience{managers}}}, nil
	}
	if c.Before != nil {
		var before PublicCommunity
		if err := c.Before.Scan(&before); err == nil && reflect.DeepEqual(before, after) {
			return nil, nil
		}
	}
	return []Event{{Type: CommunityUpdated, ContextKey: key, Payload: after, To: []Audience{{CommunityMembers, after.ID}, managers}}}, nil
}

type membership struct {
	CommunityID uuid.UUID `cdc:"community_id"`
	SeriesID    uuid.UUID `cdc:"series_id"`
	ProfileID   uuid.UUID `cdc:"profile_id"`
}

// removed is the payload of a members-removed event.
type removed struct {
	CommunityID *uuid.UUID  `json:"communityId,omitempty"`
	SeriesID    *uuid.UUID  `json:"seriesId,omitempty"`
	ProfileIDs  []uuid.UUID `json:"profileIds"`
}

// Deleted is the payload of a deletion.
type Deleted struct {
	ID uuid.UUID `json:"id"`
}

func communityMembershipEvents(c change.Change) ([]Event, error) {
	if c.Op != change.Delete {
		return nil, nil
	}
	var m membership
	if err := c.Before.Scan(&m); err != nil {
		return nil, fmt.Errorf("realtime: community_memberships: %w", err)
	}
	key := "community:" + m.CommunityID.String()
	return []Event{
		{
			Type: CommunityDeleted, ContextKey: key, Payload: Deleted{m.CommunityID},
			To: []Audience{{UserOfProfileUnlessManager, m.ProfileID}},
			If: &Condition{Table: "communities", ID: m.CommunityID, Exists: false},
		},
		{
			Type: CommunityMembersRemove, ContextKey: key,
			Payload: removed{CommunityID: &m.CommunityID, ProfileIDs: []uuid.UUID{m.ProfileID}},
			To:      []Audience{{CommunityMembers, m.CommunityID}, {UserOfProfile, m.ProfileID}},
			If:      &Condition{Table: "communities", ID: m.CommunityID, Exists: true},
		},
	}, nil
}

// added is the payload of series.members.added.
type added struct {
	SeriesID   uuid.UUID   `json:"seriesId"`
	ProfileIDs []uuid.UUID `json:"profileIds"`
}

func seriesMembershipEvents(c change.Change) ([]Event, error) {
	if c.Op == change.Create || c.Op == change.Update {
		return seriesMembershipAdded(c)
	}
	if c.Op != change.Delete {
		return nil, nil
	}
	var m membership
	if err := c.Before.Scan(&m); err != nil {
		return nil, fmt.Errorf("realtime: series_memberships: %w", err)
	}
	key := "series:" + m.SeriesID.String()
	return []Event{
		{
			Type: SeriesDeleted, ContextKey: key, Payload: Deleted{m.SeriesID},
			To: []Audience{{UserOfProfile, m.ProfileID}},
			If: &Condition{Table: "series", ID: m.SeriesID, Exists: false},
		},
		{
			Type: SeriesMembersRemoved, ContextKey: key,
			Payload: removed{SeriesID: &m.SeriesID, ProfileIDs: []uuid.UUID{m.ProfileID}},
			To:      []Audience{{SeriesMembers, m.SeriesID}, {UserOfProfile, m.ProfileID}},
			If:      &Condition{Table: "series", ID: m.SeriesID, Exists: true},
		},
	}, nil
}

// seriesMembershipAdded: a forum membership made active (written active,
// or a pending one activated when its person registered) is told to its
// member alone; a role or expert change is not.
func seriesMembershipAdded(c change.Change) ([]Event, error) {
	var m membership
	var after, before struct {
		Status string `cdc:"status"`
	}
	if err := c.After.Scan(&m); err != nil {
		return nil, fmt.Errorf("realtime: series_memberships: %w", err)
	}
	if err := c.After.Scan(&after); err != nil || after.Status != "active" {
		return nil, err
	}
	if c.Op == change.Update && (c.Before == nil || c.Before.Scan(&before) != nil || before.Status == "active") {
		return nil, nil
	}
	return []Event{{
		Type: SeriesMembersAdded, ContextKey: "series:" + m.SeriesID.String(),
		Payload: added{SeriesID: m.SeriesID, ProfileIDs: []uuid.UUID{m.ProfileID}},
		To:      []Audience{{UserOfProfile, m.ProfileID}},
	}}, nil
}

// Presence is the payload of user.connected, user.disconnected and
// user.status.
type Presence struct {
	UserID uuid.UUID `json:"userId"`
	// Status is online, away or do-not-disturb, or offline for
	// user.disconnected.
	Status string `json:"status"`
}

// presenceEvents: an online_users row appears when a member's first
// connection on any node opens and disappears when their last one closes
// (see migration 0003); its status, decided by the presence triggers
// (migration 0017), changes among online, away and do-not-disturb while
// it exists. Its other updates (another node, another tab) are not events.
func presenceEvents(c change.Change) ([]Event, error) {
	var row struct {
		UserID uuid.UUID `cdc:"user_id"`
		Status string    `cdc:"status"`
	}
	if err := c.Row().Scan(&row); err != nil {
		return nil, fmt.Errorf("realtime: online_users: %w", err)
	}
	ev := Event{ContextKey: "user:" + row.UserID.String(), To: []Audience{{ReadersOfUser, row.UserID}}, Except: row.UserID}
	switch c.Op {
	case change.Create:
		ev.Type, ev.Payload = UserConnected, Presence{row.UserID, row.Status}
	case change.Delete:
		ev.Type, ev.Payload = UserDisconnected, Presence{row.UserID, "offline"}
	case change.Update:
		if c.Before == nil {
			return nil, nil
		}
		var before struct {
			Status string `cdc:"status"`
		}
		if err := c.Before.Scan(&before); err != nil || before.Status == row.Status {
			return nil, nil
		}
		ev.Type, ev.Payload, ev.To = UserStatus, Presence{row.UserID, row.Status}, []Audience{{PeersOfUser, row.UserID}}
	default:
		return nil, nil
	}
	return []Event{ev}, nil
}

// PublicOrganization is what the organization events show: the fields of
// the Organization object that are the same for everyone (the caller's
// role and the counts are not), never the identity client's settings
// beyond its issuer.
type PublicOrganization struct {
	ID             uuid.UUID `json:"id"`
	Name           string    `json:"name"`
	Image          *string   `json:"image"`
	IdentityClient *string   `json:"identityClient"`
}

// organizationEvents: an organization created, edited or deleted, told to
// its people and to super users. Its people are gone by the time a
// deletion is consumed; each profile's own delete tells its person
// (profileEvents).
func organizationEvents(c change.Change) ([]Event, error) {
	var o PublicOrganization
	row := c.After
	if c.Op == change.Delete {
		row = c.Before
	}
	if err := row.Scan(&o); err != nil {
		return nil, fmt.Errorf("realtime: organizations: %w", err)
	}
	key := "organization:" + o.ID.String()
	everyone := []Audience{{OrganizationMembers, o.ID}, {SuperUsers, uuid.Nil}}
	switch c.Op {
	case change.Create:
		return []Event{{Type: OrganizationCreated, ContextKey: key, Payload: o, To: everyone}}, nil
	case change.Update:
		if c.Before != nil {
			var before PublicOrganization
			if err := c.Before.Scan(&before); err == nil && reflect.DeepEqual(before, o) {
				return nil, nil
			}
		}
		return []Event{{Type: OrganizationUpdated, ContextKey: key, Payload: o, To: everyone}}, nil
	case change.Delete:
		return []Event{{Type: OrganizationDeleted, ContextKey: key, Payload: Deleted{o.ID}, To: []Audience{{SuperUsers, uuid.Nil}}}}, nil
	}
	return nil, nil
}

// profileEvents: a profile deleted with its organization is the
// organization's deletion for its person.
func profileEvents(c change.Change) ([]Event, error) {
	if c.Op != change.Delete {
		return nil, nil
	}
	var p struct {
		OrganizationID uuid.UUID  `cdc:"organization_id"`
		UserID         *uuid.UUID `cdc:"user_id"`
	}
	if err := c.Before.Scan(&p); err != nil {
		return nil, fmt.Errorf("realtime: profiles: %w", err)
	}
	if p.UserID == nil {
		return nil, nil // nobody registered: nobody to tell
	}
	return []Event{{
		Type: OrganizationDeleted, ContextKey: "organization:" + p.OrganizationID.String(), Payload: Deleted{p.OrganizationID},
		To: []Audience{{FormerMember, *p.UserID}},
		If: &Condition{Table: "organizations", ID: p.OrganizationID, Exists: false},
	}}, nil
}
