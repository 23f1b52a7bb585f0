package feed

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/jsontime"
	"agora/internal/rules/access"
)

// The activities' vocabulary (spec 001 §7 names the fields, not their
// values): what was acted on within the context, and how.
var (
	// ObjectTypes: the post itself, or its file, image, link or video.
	ObjectTypes = []string{"thread", "file", "image", "link", "video"}
	// VerbTypes: viewed (a post read on its own page; it is no longer new
	// to its reader), opened (an attachment opened in the viewer), played
	// (a video played, data.position in seconds).
	VerbTypes = []string{"viewed", "opened", "played"}
)

// Limits of an activity.
const (
	// MaxActivityData is the most bytes of an activity's data, as JSON.
	MaxActivityData = 2048
	// MaxActivityRecipients is the most recipients one activity names.
	MaxActivityRecipients = 50
)

// Activity is POST /activities: Actor did VerbType to ObjectType in the
// post or forum ContextKey names ("thread:{id}" or "series:{id}", the
// live events' contextKey form).
type Activity struct {
	Actor      auth.Caller
	ContextKey string
	ObjectType string
	VerbType   string
	// Data is a JSON object (nil for none).
	Data json.RawMessage
	// Recipients are the users the activity is for.
	Recipients []uuid.UUID
	// ActorID, when sent, must be the caller's.
	ActorID *uuid.UUID
	// Context, when sent, must be the context's own forum and community.
	Context *ActivityContext
}

// ActivityContext is where an activity happened: the forum and its
// community, which the server reads from the context key.
type ActivityContext struct {
	CommunityID uuid.UUID `json:"communityId"`
	SeriesID    uuid.UUID `json:"seriesId"`
}

// RecordedActivity is the activity as recorded.
type RecordedActivity struct {
	ID         uuid.UUID       `json:"id"`
	ActorID    uuid.UUID       `json:"actorId"`
	ContextKey string          `json:"contextKey"`
	ObjectType string          `json:"objectType"`
	VerbType   string          `json:"verbType"`
	Data       json.RawMessage `json:"data"`
	Recipients []uuid.UUID     `json:"recipients"`
	Context    ActivityContext `json:"context"`
	CreatedOn  jsontime.Time   `json:"createdOn"`
}

// check validates what needs no database, and returns the context's kind
// and id.
func (in Activity) check() (kind string, id uuid.UUID, err error) {
	f := apperr.Fields{}
	kind, rest, ok := strings.Cut(in.ContextKey, ":")
	if id, err = uuid.Parse(rest); !ok || err != nil || (kind != "thread" && kind != "series") {
		f.Add("contextKey", "must be thread:{id} or series:{id}")
	}
	if !slices.Contains(ObjectTypes, in.ObjectType) {
		f.Add("objectType", "must be one of "+strings.Join(ObjectTypes, ", "))
	}
	if !slices.Contains(VerbTypes, in.VerbType) {
		f.Add("verbType", "must be one of "+strings.Join(VerbTypes, ", "))
	}
	if in.VerbType == "viewed" && kind != "thread" {
		f.Add("verbType", "viewed is said of a post (contextKey thread:{id})")
	}
	if len(in.Data) > 0 {
		var obj map[string]any
		if json.Unmarshal(in.Data, &obj) != nil || obj == nil {
			f.Add("data", "must be a JSON object")
		} else if len(in.Data) > MaxActivityData {
			f.Add("data", fmt.Sprintf("must be at most %d bytes", MaxActivityData))
		}
	}
	if len(in.Recipients) > MaxActivityRecipients {
		f.Add("recipients", fmt.Sprintf("must name at most %d users", MaxActivityRecipients))
	}
	seen := map[uuid.UUID]bool{}
	for _, r := range in.Recipients {
		if seen[r] {
			f.Add("recipients", "must not name a user twice")
		}
		seen[r] = true
	}
	if in.ActorID != nil && *in.ActorID != in.Actor.UserID {
		f.Add("actorId", "must be the caller")
	}
	return kind, id, f.Err()
}

// RecordActivity records an activity of the caller in a post or forum they
// read; one they may not read is not found, as an unknown one is.
func (s *Service) RecordActivity(ctx context.Context, in Activity) (RecordedActivity, error) {
	kind, id, err := in.check()
	if err != nil {
		return RecordedActivity{}, err
	}
	out := RecordedActivity{ID: newID(), ActorID: in.Actor.UserID, ContextKey: kind + ":" + id.String(),
		ObjectType: in.ObjectType, VerbType: in.VerbType, Data: json.RawMessage("{}"), Recipients: in.Recipients}
	if len(in.Data) > 0 {
		out.Data = in.Data
	}
	if out.Recipients == nil {
		out.Recipients = []uuid.UUID{}
	}
	err = db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		row := model.Activities{ID: out.ID, ActorID: out.ActorID, ContextKey: out.ContextKey, ObjectType: out.ObjectType,
			VerbType: out.VerbType, Data: string(out.Data), Recipients: []string{}, CreatedOn: s.timestamp()}
		var f access.Forum
		if kind == "thread" {
			t, forum, err := loadThread(ctx, tx, in.Actor, id)
			if err != nil {
				return err
			}
			row.SeriesID, row.ThreadID, f = t.SeriesID, &t.ID, forum
		} else {
			forum, err := access.ReadForum(ctx, tx, in.Actor.UserID, in.Actor.Role, id)
			if err != nil {
				return err
			}
			row.SeriesID, f = id, forum
		}
		out.Context = ActivityContext{CommunityID: f.CommunityID, SeriesID: row.SeriesID}
		if in.Context != nil && *in.Context != out.Context {
			return apperr.Invalid(map[string]string{"context": "must be the forum and community of contextKey"})
		}
		for _, r := range out.Recipients {
			row.Recipients = append(row.Recipients, r.String())
		}
		out.CreatedOn = jsontime.Of(row.CreatedOn)
		a := table.Activities
		if _, err := db.Exec(ctx, tx, a.INSERT(a.AllColumns).MODEL(row)); err != nil {
			return fmt.Errorf("feed: activity: %w", err)
		}
		return nil
	})
	return out, err
}
