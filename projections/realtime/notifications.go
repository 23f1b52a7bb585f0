package realtime

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"agora/internal/plumbing/db/gen/model"
	"agora/projections/change"
	qnotifications "agora/query/notifications"
)

// The notifications' live events (contract of issue 17), made from the
// notifications table so that they come after the row is written: the
// recipient's browser refetches its list on either.
const (
	// UserMentioned tells a member they were mentioned; its payload is the
	// Notification as GET /notifications lists it.
	UserMentioned = "user.mentioned"
	// ReplyNotified tells a member of a comment on their post or a reply
	// to their comment.
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

// Notifications is what the notifications' events read when they are
// delivered: query/notifications' item, as the bell lists it.
type Notifications interface {
	Live(ctx context.Context, n model.Notifications) (qnotifications.Notification, error)
	ReplyParent(ctx context.Context, replyID uuid.UUID) (*uuid.UUID, error)
}

// MentionPayload is the payload of user.mentioned, user.notified and
// user.community.joined: the Notification, completed at delivery.
type MentionPayload struct {
	row model.Notifications
	n   qnotifications.Notification
}

// MarshalJSON is the Notification.
func (p *MentionPayload) MarshalJSON() ([]byte, error) { return json.Marshal(p.n) }

// ReplyNotice is the payload of channel.thread.reply.created: the comment
// or reply (id), its post, the comment it answers (null for a comment, read
// at delivery) and whose post or comment it answers (the recipient).
type ReplyNotice struct {
	ID              uuid.UUID  `json:"id"`
	PostID          uuid.UUID  `json:"postId"`
	ParentID        *uuid.UUID `json:"parentId"`
	ParentCreatorID uuid.UUID  `json:"parentCreatorId"`
	SeriesID        uuid.UUID  `json:"seriesId"`

	reply bool
}

func (p *ReplyNotice) complete(ctx context.Context, notes Notifications) error {
	if !p.reply {
		return nil
	}
	var err error
	p.ParentID, err = notes.ReplyParent(ctx, p.ID)
	return err
}

// notificationEvents: a notification written is told to its recipient
// alone; messages have their own events (chat.go), and a row's removal
// none.
func notificationEvents(c change.Change) ([]Event, error) {
	if c.Op != change.Create {
		return nil, nil
	}
	var n model.Notifications
	if err := c.After.Scan(&n); err != nil {
		return nil, fmt.Errorf("realtime: notifications: %w", err)
	}
	to := []Audience{{TheUser, n.UserID}}
	key := "user:" + n.UserID.String()
	switch n.Kind {
	case "mention":
		return []Event{{Type: UserMentioned, ContextKey: key, Payload: &MentionPayload{row: n}, To: to}}, nil
	case "forum-access":
		return []Event{{Type: UserNotified, ContextKey: key, Payload: &MentionPayload{row: n}, To: to}}, nil
	case "community-join":
		return []Event{{Type: CommunityJoined, ContextKey: key, Payload: &MentionPayload{row: n}, To: to}}, nil
	case "comment", "reply":
		if n.PostID == nil || n.SeriesID == nil {
			return nil, fmt.Errorf("realtime: notifications: a %s without its post", n.Kind)
		}
		return []Event{{Type: ReplyNotified, ContextKey: key, To: to, Payload: &ReplyNotice{
			ID: n.SourceID, PostID: *n.PostID, ParentCreatorID: n.UserID, SeriesID: *n.SeriesID, reply: n.Kind == "reply",
		}}}, nil
	}
	return nil, nil
}
