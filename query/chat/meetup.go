package chat

import (
	"context"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/paging"
	"agora/internal/rules/access"
)

// MeetUpConversation is GET /meetings/{roomId}/chat/threads: the Meet Up
// chat's messages newest first, those created before CreatedBefore
// (exclusive) when set.
type MeetUpConversation struct {
	Reader        auth.Caller
	RoomID        uuid.UUID
	PageSize      int
	CreatedBefore *time.Time
}

// MeetUpConversation reads a page of the chat of a Meet Up the reader may
// join (access.ReadMeetingChat), after it ended too; a chat without a
// message yet is an empty page. The page is a private conversation's.
func (q *Queries) MeetUpConversation(ctx context.Context, in MeetUpConversation) (paging.Page[Message], error) {
	page := paging.Page[Message]{Results: []Message{}}
	if err := checkMessagePage(in.PageSize); err != nil {
		return page, err
	}
	chat, err := access.ReadMeetingChat(ctx, q.db, in.Reader, in.RoomID, time.Now())
	if err != nil || chat.ChannelID == nil {
		return page, err
	}
	return q.page(ctx, *chat.ChannelID, in.Reader.UserID, in.PageSize, in.CreatedBefore)
}

// MeetUpMessage is one message of the Meet Up's chat as reader, who may
// join the Meet Up, sees it; any other message is not found.
func (q *Queries) MeetUpMessage(ctx context.Context, reader auth.Caller, roomID, id uuid.UUID) (Message, error) {
	chat, err := access.ReadMeetingChat(ctx, q.db, reader, roomID, time.Now())
	if err != nil {
		return Message{}, err
	}
	if chat.ChannelID == nil {
		return Message{}, apperr.ErrNotFound
	}
	ms, err := q.readMessages(ctx, selectMessages(nil, mm.ID.EQ(UUID(id)).AND(mm.ChannelID.EQ(UUID(*chat.ChannelID)))), reader.UserID)
	if err != nil {
		return Message{}, err
	}
	if len(ms) == 0 {
		return Message{}, apperr.ErrNotFound
	}
	return ms[0].Message, nil
}

// page reads a page of channel's messages for reader, who may read it,
// and how many the channel holds.
func (q *Queries) page(ctx context.Context, channel, reader uuid.UUID, size int, before *time.Time) (paging.Page[Message], error) {
	page := paging.Page[Message]{Results: []Message{}}
	where := mm.ChannelID.EQ(UUID(channel))
	var err error
	if page.Total, err = db.Count(ctx, q.db, mm, where); err != nil {
		return page, fmt.Errorf("chat: conversation: %w", err)
	}
	if before != nil {
		where = where.AND(mm.CreatedOn.LT(TimestampzT(before.UTC())))
	}
	ms, err := q.readMessages(ctx, selectMessages(nil, where).
		ORDER_BY(mm.CreatedOn.DESC(), mm.ID.DESC()).LIMIT(int64(size)), reader)
	for _, m := range ms {
		page.Results = append(page.Results, m.Message)
	}
	return page, err
}
