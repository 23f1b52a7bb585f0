package analytics

// The kinds of facts (the facts table's kind column, README.md's Kinds):
// the analytics projection (projections/insights) writes them and the
// reports (query/insights) read them, so they are spelled once, here,
// below both. A post has a post fact and one fact for each other kind it
// has (question, image…); a comment a comment or a reply fact, and an
// inline_question fact when it asks; the others one each. A kind an
// object had and no longer has (a deletion, an edit, read from the
// change's before-image) is written again inactive.
const (
	KindPost           = "post"            // a thread of any type (post, question, shared AI chat)
	KindQuestion       = "question"        // a question post; detail: its plain text
	KindImage          = "image"           // a post with an image
	KindFile           = "file"            // a post with a file
	KindLink           = "link"            // a post with a link that is not an embedded video
	KindVideo          = "video"           // a post with an embedded video link
	KindAIChat         = "ai_chat"         // a shared AI search conversation
	KindComment        = "comment"         // a reply without a parent
	KindReply          = "reply"           // a reply to a comment
	KindInlineQuestion = "inline_question" // a comment or reply asking questions; n: how many; detail: them, a line each
	KindReaction       = "reaction"        // a reaction on a post or a comment; detail: its kind
	KindVisit          = "visit"           // a forum visit
	KindAISearch       = "ai_search"       // a question asked of the AI search; post_id: the search; detail: the question
	KindMember         = "member"          // forum access of a profile; actor: its user; detail: the role
	// Meet Ups: the Meet Up on the day it starts (post_id: its post;
	// detail: open or private; n: its length in minutes), each invitation
	// or registration (post_id: the Meet Up; actor: the invitee), and each
	// time a participant spent in its rooms (object: the session; post_id:
	// the Meet Up; actor: the participant; n: seconds, 0 while present).
	// They are in no channel: a Meet Up is the forum's.
	KindMeetup         = "meetup"
	KindMeetupInvited  = "meetup_invited"
	KindMeetupAttended = "meetup_attended"
)

// Kinds lists every kind of fact, in README.md's order.
func Kinds() []string {
	return []string{
		KindPost, KindQuestion, KindImage, KindFile, KindLink, KindVideo, KindAIChat,
		KindComment, KindReply, KindInlineQuestion, KindReaction, KindVisit, KindAISearch, KindMember,
		KindMeetup, KindMeetupInvited, KindMeetupAttended,
	}
}
