// Package feed is the write side of the forum feed (spec 001): posts and
// questions (threads), comments and replies, reactions and forum visits.
// Every rule of who may do what is asked of internal/rules/access.
package feed

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/adapters/blob"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
	"agora/internal/rules/message"
	"agora/internal/rules/plaintext"
	"agora/internal/rules/richtext"
)

// MaxText is the longest post or comment text, in characters (spec 001 §9).
const MaxText = 4000

// maxMentions bounds the mentions kept from one text.
const maxMentions = 50

// Service runs the feed commands.
type Service struct {
	db *pgxpool.Pool
	// store holds the posts' uploads, removed with their posts.
	store *blob.Store
	now   func() time.Time
}

// New builds the service.
func New(d *db.DB, store *blob.Store) (*Service, error) {
	if d == nil || d.Pool == nil || store == nil {
		return nil, errors.New("feed.New: nil dependency")
	}
	return &Service{db: d.Pool, store: store, now: time.Now}, nil
}

// Errors of the feed commands (spec 001 §8).
var (
	// ErrPostCreating is a post or question that breaks the rules; details.fields say which.
	ErrPostCreating = apperr.New(apperr.BadInput, "feedPostCreating", "the post could not be created")
	// ErrPostUpdating is an edit that breaks the rules; details.fields say which.
	ErrPostUpdating = apperr.New(apperr.BadInput, "feedPostUpdating", "the post could not be updated")
)

// timestamp is now to the millisecond, the precision of the wire: the feed's
// createdBefore cursor is a createdOn read back from the API, so stored
// times must compare equal to it.
func (s *Service) timestamp() time.Time { return s.now().UTC().Truncate(time.Millisecond) }

// checkPost trims a post's text and validates its content, adding to f:
// the rules of every message (message.Content.Check) and something to
// show, which a link alone may be.
func checkPost(c *message.Content, f apperr.Fields) {
	c.Check(f, MaxText)
	if c.Raw == "" && c.Image == nil && c.File == nil && c.Link == nil {
		f.Add("raw", "a post needs text, an image, a file or a link")
	}
}

// checkReplyText trims a comment's text and validates it.
func checkReplyText(raw *string, f apperr.Fields) string {
	if raw == nil {
		return ""
	}
	t := plaintext.Trim(*raw)
	switch {
	case t == "":
		f.Add("raw", "must not be empty")
	case utf8.RuneCountInString(t) > MaxText:
		f.Add("raw", fmt.Sprintf("must be at most %d characters", MaxText))
	}
	return t
}

// threadRef is what the rules need of a thread.
type threadRef struct {
	ID        uuid.UUID
	SeriesID  uuid.UUID
	CreatorID uuid.UUID
}

// loadThread finds a thread and the actor's rights in its forum; a thread
// the actor cannot read (its forum, or the admin channel of a forum they do
// not administer) is as unknown as a missing one, so that ids cannot be
// probed.
func loadThread(ctx context.Context, q pgx.Tx, a auth.Caller, id uuid.UUID) (threadRef, access.Forum, error) {
	t := threadRef{ID: id}
	var kind string
	th, c := table.Threads, table.Channels
	err := db.QueryRow(ctx, q, SELECT(th.SeriesID, th.CreatorID, c.Kind).
		FROM(th.INNER_JOIN(c, c.ID.EQ(th.ChannelID))).WHERE(th.ID.EQ(UUID(id)))).
		Scan(&t.SeriesID, &t.CreatorID, &kind)
	if errors.Is(err, pgx.ErrNoRows) {
		return t, access.Forum{}, apperr.ErrNotFound
	}
	if err != nil {
		return t, access.Forum{}, fmt.Errorf("feed: thread: %w", err)
	}
	f, err := access.ReadForum(ctx, q, a.UserID, a.Role, t.SeriesID)
	if err != nil {
		return t, f, err
	}
	// The admin channel is for forum admins only.
	if kind == "admin" && !f.Admin {
		return t, f, access.ErrForumNotFound
	}
	return t, f, nil
}

// mentionable is who a text may mention: the readers of the forum
// seriesID and, in the comments of a private Meet Up's post, only the Meet
// Up's creator and invitees among them (spec 001 §5 "Mentions and
// hashtags"). Anyone else mentioned becomes plain words (parse).
type mentionable struct {
	seriesID uuid.UUID
	// meetup is the private Meet Up whose post is commented on; nil for a
	// post itself, and for the comments of other posts and of open Meet
	// Ups' posts.
	meetup *uuid.UUID
}

// commentsOn is who the comments and replies of post t may mention.
func commentsOn(ctx context.Context, q pgx.Tx, t threadRef) (mentionable, error) {
	m := table.Meetings
	ids, err := db.Values[uuid.UUID](ctx, q, SELECT(m.ID).FROM(m).WHERE(m.ThreadID.EQ(UUID(t.ID)).AND(m.Open.IS_FALSE())))
	if err != nil {
		return mentionable{}, fmt.Errorf("feed: Meet Up of the post: %w", err)
	}
	w := mentionable{seriesID: t.SeriesID}
	if len(ids) == 1 {
		w.meetup = &ids[0]
	}
	return w, nil
}

// allows reports whether user, a reader of the forum, may be mentioned.
func (w mentionable) allows(ctx context.Context, q pgx.Tx, user uuid.UUID) (bool, error) {
	if w.meetup == nil {
		return true, nil
	}
	m, mi := table.Meetings, table.MeetingInvitees
	n, err := db.Count(ctx, q, m, m.ID.EQ(UUID(*w.meetup)).AND(m.CreatorID.EQ(UUID(user)).OR(EXISTS(
		SELECT(mi.UserID).FROM(mi).WHERE(mi.MeetingID.EQ(m.ID).AND(mi.UserID.EQ(UUID(user))))))))
	if err != nil {
		return false, fmt.Errorf("feed: mention in a Meet Up: %w", err)
	}
	return n > 0, nil
}

// parse reads the mentions and hashtags of a text, keeping only mentions of
// people who may read the forum, and of those only the ones who may be
// mentioned there (mentionable): a mention of anyone else would leak the
// post to them through notifications. It answers the text to store: each
// kept mention shows the name the server knows for its id, and any other
// mention (an unknown id, someone who cannot read the forum or be
// mentioned there, one past the most kept) becomes plain words, so that no
// mention shows a name its writer made up for someone (spec 001 §4
// "Reading text").
func parse(ctx context.Context, q pgx.Tx, who mentionable, raw string) (text string, mentions, hashtags []string, err error) {
	p := richtext.Parse(raw)
	hashtags = p.Hashtags
	mentions = []string{}
	if len(p.Mentions) > maxMentions {
		p.Mentions = p.Mentions[:maxMentions]
	}
	names := map[uuid.UUID]string{}
	u := table.Users
	for _, id := range p.Mentions {
		var role, first, last string
		err := db.QueryRow(ctx, q, SELECT(u.Role, u.FirstName, u.LastName).FROM(u).WHERE(u.ID.EQ(UUID(id)))).Scan(&role, &first, &last)
		if errors.Is(err, pgx.ErrNoRows) {
			continue
		}
		if err != nil {
			return "", nil, nil, fmt.Errorf("feed: mention: %w", err)
		}
		f, err := access.InForum(ctx, q, id, auth.Role(role), who.seriesID)
		if err != nil {
			return "", nil, nil, err
		}
		if !f.Read() {
			continue
		}
		ok, err := who.allows(ctx, q, id)
		if err != nil {
			return "", nil, nil, err
		}
		if ok {
			mentions = append(mentions, id.String())
			names[id] = first + " " + last
		}
	}
	text = richtext.Rewrite(raw, func(id uuid.UUID) (string, bool) {
		n, ok := names[id]
		return n, ok
	})
	return text, mentions, hashtags, nil
}

// removeBlobs removes the blobs of uploads whose rows a committed
// transaction deleted. A blob that stays (the folder failed) is no longer
// served, its row being gone: it is only disk, so the post's change stands.
func (s *Service) removeBlobs(ids []uuid.UUID) {
	_ = s.store.RemoveAll(ids)
}

func newID() uuid.UUID {
	id, err := uuid.NewV7()
	if err != nil {
		panic(err) // only when the system's random source fails
	}
	return id
}

// loadReply finds a reply of a thread and checks the actor may manage it.
func loadReply(ctx context.Context, tx pgx.Tx, a auth.Caller, threadID, replyID uuid.UUID, manage bool) (threadRef, error) {
	t, f, err := loadThread(ctx, tx, a, threadID)
	if err != nil {
		return t, err
	}
	var creator uuid.UUID
	r := table.Replies
	err = db.QueryRow(ctx, tx, SELECT(r.CreatorID).FROM(r).WHERE(r.ID.EQ(UUID(replyID)).AND(r.ThreadID.EQ(UUID(threadID))))).Scan(&creator)
	if errors.Is(err, pgx.ErrNoRows) {
		return t, apperr.ErrNotFound
	}
	if err != nil {
		return t, fmt.Errorf("feed: reply: %w", err)
	}
	if manage && creator != a.UserID && !f.Admin {
		return t, apperr.ErrForbidden
	}
	return t, nil
}

// onlyCreatorOfMeetup refuses anyone but its creator a Meet Up's post
// (spec 002 §6: edit and delete a Meet Up, creator only), which forum
// admins otherwise manage as any post.
func onlyCreatorOfMeetup(ctx context.Context, tx pgx.Tx, t threadRef, a auth.Caller) error {
	if t.CreatorID == a.UserID {
		return nil
	}
	n, err := db.Count(ctx, tx, table.Meetings, table.Meetings.ThreadID.EQ(UUID(t.ID)))
	if err != nil {
		return fmt.Errorf("feed: meeting of thread: %w", err)
	}
	if n > 0 {
		return apperr.ErrForbidden
	}
	return nil
}
