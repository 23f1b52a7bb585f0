package aisearch

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/jsontime"
	"agora/internal/rules/message"
	"agora/search/answer"
)

// KindSharedChat is the type of a post that shares an AI search
// conversation.
const KindSharedChat = "shared-ai-chat"

// ShareChat is POST /ai-response/share-chat.
type ShareChat struct {
	Viewer    auth.Caller
	ChannelID uuid.UUID
	SearchID  uuid.UUID
}

// ChatMessage is one message of a shared chat (the contract's
// AIChatMessage): the asker's question (role user) or the answer (role
// other), with the posts its markers cite, so the shared post keeps its
// citation links and its Sources list.
type ChatMessage struct {
	Role      string          `json:"role"`
	Content   string          `json:"content"`
	Sources   []answer.Source `json:"sources,omitempty"`
	CreatedOn jsontime.Time   `json:"createdOn"`
}

// ShareChat posts the viewer's search to its channel as a shared-ai-chat
// post whose chat is every question and answer, oldest first, and returns
// the post's id. The viewer must still read the channel (403); the search
// must be the viewer's own in that channel (404) and have an answer (400
// validationFailed). The post's text is the first question, which the
// feed shows where it cannot show a chat; the post index keeps it, and the
// AI search never takes it as a source (sourceFilter).
// Its mentions and hashtags are empty: sharing notifies no one.
func (s *Service) ShareChat(ctx context.Context, in ShareChat) (uuid.UUID, error) {
	id := newID()
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		ch, err := readChannel(ctx, tx, in.Viewer, in.ChannelID)
		if err != nil {
			return err
		}
		turns, err := loadTurns(ctx, tx, in.Viewer, in.ChannelID, in.SearchID)
		if err != nil {
			return err
		}
		if len(turns) == 0 {
			return apperr.Invalid(map[string]string{"searchId": "the search has no answer yet"})
		}
		chat := make([]ChatMessage, 0, 2*len(turns))
		for _, t := range turns {
			chat = append(chat,
				ChatMessage{Role: "user", Content: t.Question, CreatedOn: jsontime.Of(t.CreatedOn)},
				ChatMessage{Role: "other", Content: t.Answer, Sources: t.Sources, CreatedOn: jsontime.Of(t.CreatedOn)})
		}
		b, err := json.Marshal(chat)
		if err != nil {
			return fmt.Errorf("aisearch: chat: %w", err)
		}
		now, err := message.PostTime(ctx, tx, ch.ID, s.timestamp())
		if err != nil {
			return err
		}
		t := table.Threads
		chatJSON := string(b)
		_, err = db.Exec(ctx, tx, t.INSERT(t.ID, t.ChannelID, t.SeriesID, t.CreatorID, t.CreatorAs, t.Type, t.Raw, t.Chat,
			t.Mentions, t.Hashtags, t.CreatedOn, t.UpdatedOn).
			MODEL(model.Threads{ID: id, ChannelID: ch.ID, SeriesID: ch.SeriesID, CreatorID: in.Viewer.UserID, CreatorAs: "author",
				Type: KindSharedChat, Raw: turns[0].Question, Chat: &chatJSON, Mentions: []string{}, Hashtags: []string{},
				CreatedOn: now, UpdatedOn: now}))
		if err != nil {
			return fmt.Errorf("aisearch: share: %w", err)
		}
		return nil
	})
	return id, err
}
