package realtime

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"agora/internal/plumbing/db/gen/model"
	"agora/internal/rules/notice"
	"agora/projections/change"
	qnotifications "agora/query/notifications"
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
	// The kind's live event is the table's (internal/rules/notice).
	switch event := notice.Of(n.Kind).Event; event {
	case "":
		return nil, nil
	case notice.ReplyNotified:
		if n.PostID == nil || n.SeriesID == nil {
			return nil, fmt.Errorf("realtime: notifications: a %s without its post", n.Kind)
		}
		return []Event{{Type: event, ContextKey: key, To: to, Payload: &ReplyNotice{
			ID: n.SourceID, PostID: *n.PostID, ParentCreatorID: n.UserID, SeriesID: *n.SeriesID, reply: n.Kind == notice.Reply,
		}}}, nil
	default:
		return []Event{{Type: event, ContextKey: key, Payload: &MentionPayload{row: n}, To: to}}, nil
	}
}
