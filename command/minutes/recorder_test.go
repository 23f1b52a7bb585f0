package minutes_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/command/minutes"
	"agora/internal/adapters/sfu"
	"agora/internal/adapters/speech/speechtest"
	"agora/internal/plumbing/auth"
	"agora/internal/standins/sfuserver"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// fixture is a live Meet Up on a new post of a seeded forum, created by a
// member of that forum.
type fixture struct {
	env     *testenv.Env
	room    uuid.UUID
	thread  uuid.UUID
	creator uuid.UUID
}

func newMeetup(t *testing.T, env *testenv.Env, agenda string, duration int) fixture {
	t.Helper()
	ctx := context.Background()
	var channel, series, creator uuid.UUID
	if err := env.DB.Pool.QueryRow(ctx, `SELECT c.id, c.series_id, p.user_id FROM channels c
		JOIN series_memberships sm ON sm.series_id = c.series_id AND sm.status = 'active'
		JOIN profiles p ON p.id = sm.profile_id
		ORDER BY c.id, p.user_id LIMIT 1`).Scan(&channel, &series, &creator); err != nil {
		t.Fatal(err)
	}
	f := fixture{env: env, room: uuid.New(), thread: uuid.New(), creator: creator}
	if _, err := env.DB.Pool.Exec(ctx, `INSERT INTO threads (id, channel_id, series_id, creator_id, raw) VALUES ($1, $2, $3, $4, '')`,
		f.thread, channel, series, creator); err != nil {
		t.Fatal(err)
	}
	if _, err := env.DB.Pool.Exec(ctx, `INSERT INTO meetings (id, thread_id, series_id, creator_id, name, agenda, start_time, duration, open)
		VALUES ($1, $2, $3, $4, 'Capstone sync', $5, now() - interval '1 minute', $6, false)`,
		f.room, f.thread, series, creator, agenda, duration); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f fixture) state(t *testing.T) (state, content *string) {
	t.Helper()
	if err := f.env.DB.Pool.QueryRow(context.Background(), `SELECT minutes_state, minutes_content FROM meetings WHERE id = $1`, f.room).
		Scan(&state, &content); err != nil {
		t.Fatal(err)
	}
	return state, content
}

// waitFor polls cond until it holds, failing the test after within: what
// it waits for (recognition on a shared machine) has no fixed duration.
func waitFor(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s after %v", what, within)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func startSFU(t *testing.T) (*sfuserver.Server, *sfu.Client) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv, err := sfuserver.Start(ctx, t.TempDir(), "", slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	c, err := sfu.New(sfu.Config{URL: srv.URL(), APIKey: srv.APIKey(), APISecret: srv.APISecret()})
	if err != nil {
		t.Fatal(err)
	}
	return srv, c
}

// speak says pcm in the room as identity.
func speak(t *testing.T, c *sfu.Client, room, identity uuid.UUID, pcm []int16) {
	t.Helper()
	token, err := c.Token(sfu.Grant{Room: room.String(), Identity: identity.String(), Name: "speaker", CanPublish: true, CanSubscribe: true})
	if err != nil {
		t.Fatal(err)
	}
	speechtest.Say(t, c.URL(), token, pcm)
}

func newService(t *testing.T, env *testenv.Env, c *sfu.Client) *minutes.Service {
	t.Helper()
	s, err := minutes.New(env.DB, c, "", nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// A member speaks in a Meet Up being recorded; when the Meet Up is ended
// (ended_on set and its room deleted, as ending it for all does), the
// minutes on the post hold what was said, with who said it.
func TestRecorderTranscribesTheRoomAndCompilesMinutesWhenTheMeetupEnds(t *testing.T) {
	env := testenv.New(t)
	_, c := startSFU(t)
	s := newService(t, env, c)
	f := newMeetup(t, env, "Capstone proposal and budget", 30)
	ctx := context.Background()
	if err := c.CreateRoom(ctx, f.room.String(), time.Minute, 0); err != nil {
		t.Fatal(err)
	}

	host := auth.Caller{UserID: f.creator, Role: auth.RoleUser}
	if err := s.Record(ctx, minutes.Record{Caller: host, RoomID: f.room}); err != nil {
		t.Fatal(err)
	}
	if st, _ := f.state(t); st == nil || *st != minutes.StateStarted {
		t.Fatalf("state %v after record", st)
	}
	ps, err := c.Participants(ctx, f.room.String())
	if err != nil || len(ps) != 1 || ps[0].Identity != minutes.RecorderIdentity(f.room) {
		t.Fatalf("participants %+v (%v), want the recorder", ps, err)
	}

	var pcm []int16
	pcm = append(pcm, speechtest.Speak(t, "The capstone proposal is due on March fourteenth.")...)
	pcm = append(pcm, speechtest.Silence(1000)...)
	pcm = append(pcm, speechtest.Speak(t, "The budget review happens next week.")...)
	speak(t, c, f.room, f.creator, pcm)

	rows := func() int {
		return env.Count(t, "meeting_transcripts", "meeting_id = $1 AND speaker_id = $2", f.room, f.creator)
	}
	waitFor(t, 2*time.Minute, "the transcript", func() bool { return rows() >= 2 })

	if _, err := env.DB.Pool.Exec(ctx, `UPDATE meetings SET ended_on = now() WHERE id = $1`, f.room); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteRoom(ctx, f.room.String()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, time.Minute, "the minutes", func() bool { st, _ := f.state(t); return st != nil && *st == minutes.StateCompleted })
	_, content := f.state(t)
	t.Logf("minutes:\n%s", *content)
	text := strings.ToLower(*content)
	for _, w := range []string{"agenda: capstone proposal and budget", "capstone", "proposal", "march", "budget", "review"} {
		if !strings.Contains(text, w) {
			t.Errorf("minutes miss %q:\n%s", w, *content)
		}
	}
	if s.Recording(f.room) {
		t.Error("the recorder is still in the room")
	}
}

// Recording asked again on another API node leaves the first node's
// recorder in the room: a second one would take its identity, and the
// first would leave and compile minutes while the Meet Up goes on.
func TestRecordOnASecondNodeKeepsTheFirstRecorder(t *testing.T) {
	env := testenv.New(t)
	_, c := startSFU(t)
	a, b := newService(t, env, c), newService(t, env, c)
	f := newMeetup(t, env, "Plans", 30)
	ctx := context.Background()
	host := auth.Caller{UserID: f.creator, Role: auth.RoleUser}
	if err := a.Record(ctx, minutes.Record{Caller: host, RoomID: f.room}); err != nil {
		t.Fatal(err)
	}
	if err := b.Record(ctx, minutes.Record{Caller: host, RoomID: f.room}); err != nil {
		t.Fatal(err)
	}
	if !a.Recording(f.room) || b.Recording(f.room) {
		t.Fatalf("recording on the first node %v, on the second %v; want the first only", a.Recording(f.room), b.Recording(f.room))
	}
	if st, _ := f.state(t); st == nil || *st != minutes.StateStarted {
		t.Errorf("state %v, want started", st)
	}
}

// A recording whose node went away before the Meet Up ended is compiled by
// the sweep of any node once the Meet Up has been over for SweepAfter,
// from the transcript written so far; one still live is left alone.
func TestSweepCompilesMinutesLeftByAGoneNode(t *testing.T) {
	env := testenv.New(t)
	_, c := startSFU(t)
	s := newService(t, env, c)
	ctx := context.Background()
	gone, live := newMeetup(t, env, "Budget", 30), newMeetup(t, env, "Budget", 30)
	for _, f := range []fixture{gone, live} {
		if _, err := env.DB.Pool.Exec(ctx, `UPDATE meetings SET minutes_state = 'started' WHERE id = $1`, f.room); err != nil {
			t.Fatal(err)
		}
		if _, err := env.DB.Pool.Exec(ctx, `INSERT INTO meeting_transcripts (meeting_id, seq, speaker_id, text, spoken_on)
			VALUES ($1, 1, $2, 'the budget review happens next week', now())`, f.room, f.creator); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := env.DB.Pool.Exec(ctx, `UPDATE meetings SET ended_on = now() - interval '5 minutes' WHERE id = $1`, gone.room); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	st, content := gone.state(t)
	if st == nil || *st != minutes.StateCompleted || content == nil || !strings.Contains(*content, "The budget review happens next week.") {
		t.Errorf("the orphaned recording: state %v, minutes %v", st, content)
	}
	if st, _ := live.state(t); st == nil || *st != minutes.StateStarted {
		t.Errorf("a live Meet Up's recording was swept: state %v", st)
	}
}
