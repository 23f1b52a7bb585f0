// Package notice is the one table of the kinds of notification (spec 000
// §7 "Notifications and personalization"; contract of issue 17): for each
// kind, the name stored in notifications.kind and sent as a Notification's
// type, whether the bell lists it, which personalization settings switch
// its e-mail and its push, whether the posts digest gathers it, how it is
// worded and linked, and the live event that tells its recipient.
//
// The notifications projection writes the kinds, the delivery projection
// mails and pushes them, the realtime projection tells them live and the
// bell's query lists them: each reads this table rather than its own
// switch, so that a kind added here is a kind everywhere, and a kind the
// migrations' CHECK does not allow fails this package's tests rather than
// a member's notification.
package notice

import (
	"slices"

	"github.com/google/uuid"

	"agora/internal/rules/membership"
	"agora/internal/rules/personalization"
)

// The kinds' names: the values of notifications.kind (its CHECK, newest
// migration that redefines notifications_kind_check) and of a listed
// Notification's type.
const (
	Mention       = "mention"
	Reply         = "reply"
	Comment       = "comment"
	MeetupOpen    = "meetup-open"
	MeetupInvite  = "meetup-invite"
	MeetupSeat    = "meetup-seat"
	ForumAccess   = "forum-access"
	CommunityJoin = "community-join"
	Message       = "message"
)

// The live events of the notifications (contract of issue 17), told to the
// recipient alone once the row is written: their browser reads the bell
// again on any of them.
const (
	// UserMentioned tells a member they were mentioned; its payload is the
	// Notification as GET /notifications lists it.
	UserMentioned = "user.mentioned"
	// ReplyNotified tells a member of a comment on their post or a reply
	// to their comment; its payload is the comment or reply, not the
	// Notification.
	ReplyNotified = "channel.thread.reply.created"
	// UserNotified tells a member of a notification of another kind
	// (forum-access: they were given access to a forum); its payload is
	// the Notification, as user.mentioned's.
	UserNotified = "user.notified"
	// CommunityJoined tells a member they were added to a community (a
	// community-join notification); its payload is the Notification, so
	// that their tabs read the bell and their communities again.
	CommunityJoined = "user.community.joined"
)

// About is what a notification is about, which says the fields its row
// holds and where its link goes.
type About int

const (
	// Post: a post of a forum (a comment, a reply, a mention, a Meet Up's
	// post); the row holds the post, its forum and its channel.
	Post About = iota + 1
	// Forum: a forum, with no post (forum-access).
	Forum
	// Community: a community, with no forum or post (community-join); the
	// bell lists it while the member is the community's.
	Community
	// Conversation: a private chat (message); the row holds its channel
	// only. It is mailed only to a member who is not online (the chat shows
	// it to one who is), once a conversation until they have opened it, and
	// pushed once a burst per conversation.
	Conversation
)

// Who is what a notification's words name: its author ("" for an
// anonymous asker), its forum and its community ("" where it has none).
type Who struct {
	Author, Forum, Community string
}

// Kind is one kind of notification.
type Kind struct {
	// Name is the string stored in notifications.kind and sent as the
	// Notification's type.
	Name  string
	About About
	// Listed: the bell lists it (GET /notifications); replies are not
	// listed (spec 000 §7), and messages live in the chat.
	Listed bool
	// Email is the personalization setting that has it mailed at once, and
	// that its mail's unsubscribe link turns off; "" is never mailed at
	// once (a comment's or a reply's mail is the posts digest's).
	Email string
	// Push is the personalization setting that has it pushed to the
	// member's browsers; "" is never pushed.
	Push string
	// Digested: the posts digest gathers it when unread.
	Digested bool
	// Burst: mailed at most once a burst (AGORA_NOTIFICATION_BURST) per
	// member, those that follow within the burst held and mailed together
	// (issue 31, G3): twelve posts mentioning someone within a second are
	// one mail.
	Burst bool
	// PushGroup: the first push of a group holds back the group's others
	// within the burst, which would only repeat its nudge; "" is pushed
	// every time.
	PushGroup string
	// Reason is the ?reason= of the link to its post, which opens the post
	// at what happened; "" points at nothing in it (a Meet Up's post).
	Reason string
	// Headline says what happened, naming the forum where Who has one;
	// Who's author is "Someone" for an anonymous asker.
	Headline func(Who) string
	// Mail is the subject and the opening line of its mail sent at once;
	// nil is the headline without the forum as the subject, and with it,
	// and a colon, as the opening line.
	Mail func(Who) (subject, intro string)
	// Event is the live event told to the recipient; "" tells nothing
	// (a Meet Up's notifications wait for the bell to be read again;
	// messages have the chat's own events).
	Event string
}

// Kinds is the table, in the order of precedence of the kinds of one
// source (a post mentioning a member that is also a comment on their post
// is headlined, and linked, as a mention): a mention first, then a reply,
// then a comment, then a Meet Up's.
var Kinds = []Kind{
	{Name: Mention, About: Post, Listed: true, Email: personalization.EmailMentions, Push: personalization.PushMentions,
		Digested: true, Burst: true, PushGroup: "mentions", Reason: "mention", Event: UserMentioned,
		Headline: by("mentioned you")},
	{Name: Reply, About: Post, Push: personalization.PushComments,
		Digested: true, PushGroup: "comments", Reason: "comment", Event: ReplyNotified,
		Headline: by("replied to your comment")},
	{Name: Comment, About: Post, Listed: true, Push: personalization.PushComments,
		Digested: true, PushGroup: "comments", Reason: "comment", Event: ReplyNotified,
		Headline: by("commented on your post")},
	// Mailed at once (spec 002 §5: the forum's members "will be notified by
	// email"), as what is addressed to the member.
	{Name: MeetupOpen, About: Post, Listed: true, Email: personalization.EmailMentions, Push: personalization.PushMentions,
		Burst: true, PushGroup: "mentions",
		Headline: scheduled,
		Mail:     func(w Who) (string, string) { return scheduled(w), scheduled(w) + ". Register for one of its seats:" }},
	{Name: MeetupInvite, About: Post, Listed: true, Push: personalization.PushMentions,
		Headline: by("invited you to a Meet Up")},
	{Name: MeetupSeat, About: Post, Listed: true, Push: personalization.PushMentions,
		Headline: func(w Who) string { return inForum("A seat is yours at a Meet Up", w) }},
	// Mailed at once, addressed to the member as a mention is: Manage
	// Access's preview promises the forum's notice, in its wording.
	{Name: ForumAccess, About: Forum, Listed: true, Email: personalization.EmailMentions, Push: personalization.PushMentions,
		Event:    UserNotified,
		Headline: access,
		Mail:     func(w Who) (string, string) { return access(w), access(w) + ":" }},
	// Mailed at once: a community they were added to is one they may now
	// open, and perhaps pay for.
	{Name: CommunityJoin, About: Community, Listed: true, Email: personalization.EmailMentions, Push: personalization.PushMentions,
		Event:    CommunityJoined,
		Headline: joined,
		Mail:     func(w Who) (string, string) { return joined(w), joined(w) + ". Its forums are waiting for you:" }},
	{Name: Message, About: Conversation, Email: personalization.EmailPrivateChats, Push: personalization.PushPrivateChats,
		PushGroup: "messages",
		Headline:  func(w Who) string { return w.Author },
		Mail: func(w Who) (string, string) {
			return w.Author + " sent you a message", w.Author + " sent you a private message:"
		}},
}

// by is the headline "<author> <did>", in the forum when there is one.
func by(did string) func(Who) string {
	return func(w Who) string { return inForum(w.Author+" "+did, w) }
}

// inForum is h, followed by the forum of w when there is one.
func inForum(h string, w Who) string {
	if w.Forum != "" {
		h += " in " + w.Forum
	}
	return h
}

var scheduled = by("scheduled a Meet Up")

// access is the wording of Manage Access's preview, which names the forum.
func access(w Who) string { return membership.AccessSubject(w.Author, w.Forum) }

// joined says that the member was added to the community; the adding has
// no author (the membership row does not say who made it).
func joined(w Who) string { return "You were added to " + w.Community }

// Of is the kind named name; for a name not in the table, the zero Kind
// (named "", listed nowhere, sent nowhere, told to nobody).
func Of(name string) Kind {
	if i := slices.IndexFunc(Kinds, func(k Kind) bool { return k.Name == name }); i >= 0 {
		return Kinds[i]
	}
	return Kind{}
}

// Names are the names of the kinds where says, in the table's order.
func Names(where func(Kind) bool) []string {
	var out []string
	for _, k := range Kinds {
		if where(k) {
			out = append(out, k.Name)
		}
	}
	return out
}

// first is the first kind of the table among names, by precedence; the
// zero Kind when none is.
func first(names []string) Kind {
	for _, k := range Kinds {
		if slices.Contains(names, k.Name) {
			return k
		}
	}
	return Kind{}
}

// Headline says what happened, for the notifications of kinds names from
// one source: the headline of the first of them in the table's order. No
// kind of the table is its author's name ("Someone" for an anonymous
// asker).
func Headline(names []string, w Who) string {
	if w.Author == "" {
		w.Author = "Someone"
	}
	k := first(names)
	if k.Headline == nil {
		return w.Author
	}
	return k.Headline(w)
}

// Mail is the subject and the opening line of the mail of a notification
// of kind name sent at once.
func Mail(name string, w Who) (subject, intro string) {
	k := Of(name)
	if k.Mail == nil {
		return Headline([]string{name}, Who{Author: w.Author, Community: w.Community}), Headline([]string{name}, w) + ":"
	}
	if w.Author == "" {
		w.Author = "Someone"
	}
	return k.Mail(w)
}

// ReplyOf is the comment or reply of its post that a notification of kind
// from source points at: the source, when it is not the post itself (a
// comment on the member's post, a comment or reply mentioning them); nil
// for a post, for a Meet Up's notification (whose source is the Meet Up,
// and which points at nothing in its post: no Reason) and without a post.
func ReplyOf(kind string, source uuid.UUID, post *uuid.UUID) *uuid.UUID {
	if post == nil || source == *post || Of(kind).Reason == "" {
		return nil
	}
	return &source
}

// Reason is the ?reason= of the link to the post of the notifications of
// kinds names from one source: the first of the table's order that has
// one; "" when none has.
func Reason(names []string) string {
	for _, k := range Kinds {
		if k.Reason != "" && slices.Contains(names, k.Name) {
			return k.Reason
		}
	}
	return ""
}
