package minutes

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/adapters/sfu"
	"agora/internal/adapters/speech"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
)

// Minutes states (meetings.minutes_state).
const (
	StateStarted   = "started"
	StateCompiling = "compiling"
	StateCompleted = "completed"
	StateCanceled  = "canceled"
	StateFailed    = "failed"
)

// MaxDuration is the longest Meet Up AI notes may record, in minutes: the
// spec allows them under 120 minutes only.
const MaxDuration = 119

// The refusals of this package's calls.
var (
	ErrTooLong        = apperr.New(apperr.Conflict, "minutesUnavailable", "AI notes are only for Meet Ups shorter than 120 minutes").With("maxDuration", MaxDuration)
	ErrNotRecording   = apperr.New(apperr.Conflict, "minutesNotRecording", "AI notes are not being recorded")
	ErrStillRecording = apperr.New(apperr.Conflict, "minutesRecording", "the AI notes are still being recorded or compiled")
	// ErrNoSFU is a recording asked for while no LiveKit server is
	// configured (the join token's refusal, same code).
	ErrNoSFU = apperr.New(apperr.Internal, "sfuUnavailable", "AI notes cannot be recorded: no video server is configured")
	// ErrNoSpeech is a recording on a node that cannot load the speech
	// recogniser (the speech packages are missing, or a binary built
	// without cgo): the state becomes failed.
	ErrNoSpeech = apperr.New(apperr.Internal, "speechUnavailable", "AI notes cannot be recorded: no speech recogniser is installed")
)

// Service runs the AI notes calls and this node's recorders.
type Service struct {
	db  *pgxpool.Pool
	sfu *sfu.Client
	// modelDir is pocketsphinx's model; the recognizer is loaded from it
	// by the first recording (recognizer), not at start: a second and 40
	// MB that an API node which never records does not spend.
	modelDir string
	recMu    sync.Mutex
	rec      *speech.Recognizer
	model    Model
	log      *slog.Logger
	now      func() time.Time
	// Poll is how often a recorder checks whether its Meet Up has ended
	// or its recording was canceled.
	poll time.Duration

	mu        sync.Mutex
	recorders map[uuid.UUID]*recorder
	closed    bool
}

// New builds the service. sfuClient may be nil (no LiveKit server: nothing
// is recorded); modelDir empty is speech.ModelDir; model may be nil:
// minutes are then extractive.
func New(d *db.DB, sfuClient *sfu.Client, modelDir string, model Model, log *slog.Logger) (*Service, error) {
	if d == nil || d.Pool == nil || log == nil {
		return nil, errors.New("minutes.New: nil dependency")
	}
	return &Service{db: d.Pool, sfu: sfuClient, modelDir: modelDir, model: model, log: log, now: time.Now,
		poll: 2 * time.Second, recorders: map[uuid.UUID]*recorder{}}, nil
}

// recognizer loads the speech recogniser once; a failure is tried again by
// the next recording.
func (s *Service) recognizer() (*speech.Recognizer, error) {
	s.recMu.Lock()
	defer s.recMu.Unlock()
	if s.rec == nil {
		r, err := speech.NewRecognizer(s.modelDir)
		if err != nil {
			return nil, err
		}
		s.rec = r
	}
	return s.rec, nil
}

// Close stops this node's recorders without compiling: their Meet Ups keep
// the state started, as a recording interrupted by a restart.
func (s *Service) Close() {
	s.mu.Lock()
	s.closed = true
	recs := make([]*recorder, 0, len(s.recorders))
	for _, r := range s.recorders {
		recs = append(recs, r)
	}
	s.mu.Unlock()
	for _, r := range recs {
		r.stop(stopShutdown)
		<-r.done
	}
	s.recMu.Lock()
	defer s.recMu.Unlock()
	if s.rec != nil {
		_ = s.rec.Close()
		s.rec = nil
	}
}

// meeting reads a Meet Up for a caller who may change its AI notes: its
// creator or one of its moderators. A Meet Up the caller cannot see (an
// unknown id, a forum they do not read) is not found; one they see but may
// not change is forbidden. The row is locked for the transaction.
func meeting(ctx context.Context, tx pgx.Tx, c auth.Caller, where BoolExpression) (model.Meetings, error) {
	m, err := db.One[model.Meetings](ctx, tx, SELECT(table.Meetings.AllColumns).FROM(table.Meetings).WHERE(where).FOR(UPDATE()))
	if errors.Is(err, pgx.ErrNoRows) {
		return m, apperr.ErrNotFound
	}
	if err != nil {
		return m, fmt.Errorf("minutes: meeting: %w", err)
	}
	if _, err := access.ReadForum(ctx, tx, c.UserID, c.Role, m.SeriesID); err != nil {
		if errors.Is(err, access.ErrForumNotFound) {
			return m, apperr.ErrNotFound
		}
		return m, fmt.Errorf("minutes: forum: %w", err)
	}
	if m.CreatorID == c.UserID {
		return m, nil
	}
	n, err := db.Count(ctx, tx, table.MeetingInvitees, table.MeetingInvitees.MeetingID.EQ(UUID(m.ID)).
		AND(table.MeetingInvitees.UserID.EQ(UUID(c.UserID))).
		AND(table.MeetingInvitees.Role.EQ(String("moderator"))))
	if err != nil {
		return m, fmt.Errorf("minutes: moderator: %w", err)
	}
	if n == 0 {
		return m, apperr.ErrForbidden
	}
	return m, nil
}

// setState writes the minutes' state (and content) of a Meet Up; nil is
// null. With from, only a Meet Up in one of those states changes; it
// reports whether one did.
func (s *Service) setState(ctx context.Context, q db.Querier, id uuid.UUID, state, content *string, from ...string) (bool, error) {
	m := table.Meetings
	now := TimestampzT(s.now())
	where := m.ID.EQ(UUID(id))
	if len(from) > 0 {
		in := make([]Expression, len(from))
		for i, f := range from {
			in[i] = String(f)
		}
		where = where.AND(m.MinutesState.IN(in...))
	}
	tag, err := db.Exec(ctx, q, m.UPDATE().SET(
		m.MinutesState.SET(text(state)), m.MinutesContent.SET(text(content)),
		m.MinutesOn.SET(now), m.UpdatedOn.SET(now)).
		WHERE(where))
	if err != nil {
		return false, fmt.Errorf("minutes: state: %w", err)
	}
	return tag.RowsAffected() > 0, nil
}

func text(v *string) StringExpression {
	if v == nil {
		return StringExp(NULL)
	}
	return String(*v)
}

func deleteTranscript(ctx context.Context, q db.Querier, id uuid.UUID) error {
	_, err := db.Exec(ctx, q, table.MeetingTranscripts.DELETE().WHERE(table.MeetingTranscripts.MeetingID.EQ(UUID(id))))
	if err != nil {
		return fmt.Errorf("minutes: delete transcript: %w", err)
	}
	return nil
}

func ptr[T any](v T) *T { return &v }
