package minutes

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	lksdk "github.com/livekit/server-sdk-go/v2"
	"github.com/pion/webrtc/v4"

	"agora/internal/adapters/sfu"
	"agora/internal/adapters/speech"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
)

// Why a recorder stops.
type stopReason int

const (
	// stopEnded: the Meet Up ended or its room closed; the minutes are
	// compiled.
	stopEnded stopReason = iota + 1
	// stopCanceled: the recording was canceled or its minutes deleted;
	// nothing is compiled.
	stopCanceled
	// stopShutdown: this node stops; the state stays as it is.
	stopShutdown
)

// RecorderIdentity is the recorder's participant identity in a Meet Up's
// room (the contract's name; hidden from the other participants).
func RecorderIdentity(roomID uuid.UUID) string { return "recorder:" + roomID.String() }

// silenceFlush is how long a track may send nothing before what it said
// is taken as an utterance: a muted microphone sends no packets, so no
// silence arrives to end the utterance.
const silenceFlush = time.Second

// recorder is this node's participant in one Meet Up's room.
type recorder struct {
	s    *Service
	id   uuid.UUID
	room *lksdk.Room
	rec  *speech.Recognizer

	mu       sync.Mutex
	stopping bool
	reason   stopReason
	quit     chan struct{} // closed by stop
	done     chan struct{} // closed when the recorder has finished
	readers  sync.WaitGroup
	queue    chan utterance
	seq      int32
}

// utterance is one speaker's speech waiting to be transcribed.
type utterance struct {
	speaker uuid.UUID
	at      time.Time
	pcm     []int16
}

// startRecorder joins the Meet Up's room, unless this node records it
// already.
func (s *Service) startRecorder(id uuid.UUID) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return errors.New("minutes: the service is closed")
	}
	if _, ok := s.recorders[id]; ok {
		s.mu.Unlock()
		return nil
	}
	r := &recorder{s: s, id: id, quit: make(chan struct{}), done: make(chan struct{}), queue: make(chan utterance, 64)}
	s.recorders[id] = r
	s.mu.Unlock()

	if err := r.connect(); err != nil {
		s.mu.Lock()
		delete(s.recorders, id)
		s.mu.Unlock()
		s.log.Error("minutes: recorder cannot join the room", "room", id, "err", err)
		if _, ferr := s.setState(context.Background(), s.db, id, ptr(StateFailed), nil, StateStarted); ferr != nil {
			s.log.Error("minutes: marking failed", "room", id, "err", ferr)
		}
		return err
	}
	go r.run()
	return nil
}

// stopRecorder stops this node's recorder of a Meet Up, if any, and waits
// until it has left.
func (s *Service) stopRecorder(id uuid.UUID, why stopReason) {
	s.mu.Lock()
	r := s.recorders[id]
	s.mu.Unlock()
	if r != nil {
		r.stop(why)
		<-r.done
	}
}

// Recording reports whether this node records the Meet Up now.
func (s *Service) Recording(id uuid.UUID) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.recorders[id]
	return ok
}

func (r *recorder) stop(why stopReason) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopping {
		return
	}
	r.stopping, r.reason = true, why
	close(r.quit)
}

func (r *recorder) connect() error {
	ctx := context.Background()
	rec, err := r.s.recognizer()
	if err != nil {
		return ErrNoSpeech.Wrap(err)
	}
	r.rec = rec
	last, err := db.Values[*int32](ctx, r.s.db, SELECT(MAX(table.MeetingTranscripts.Seq)).FROM(table.MeetingTranscripts).
		WHERE(table.MeetingTranscripts.MeetingID.EQ(UUID(r.id))))
	if err != nil {
		return fmt.Errorf("minutes: transcript: %w", err)
	}
	if len(last) == 1 && last[0] != nil {
		r.seq = *last[0]
	}
	token, err := r.s.sfu.Token(sfu.Grant{
		Room: r.id.String(), Identity: RecorderIdentity(r.id), Name: "AI notes",
		Hidden: true, Recorder: true, CanSubscribe: true,
	})
	if err != nil {
		return fmt.Errorf("minutes: token: %w", err)
	}
	cb := lksdk.NewRoomCallback()
	cb.OnTrackSubscribed = r.subscribed
	cb.OnDisconnectedWithReason = func(why lksdk.DisconnectionReason) {
		if why == lksdk.DuplicateIdentity {
			// Another node's recorder joined as this one: it records
			// now, and this one leaves without compiling.
			r.stop(stopShutdown)
			return
		}
		// The room closed (the Meet Up was ended for all) or the
		// connection was lost for good. After this recorder's own
		// Disconnect the first reason stays.
		r.stop(stopEnded)
	}
	room, err := lksdk.ConnectToRoomWithToken(r.s.sfu.URL(), token, cb, lksdk.WithAutoSubscribe(true))
	if err != nil {
		return fmt.Errorf("minutes: join room: %w", err)
	}
	r.room = room
	return nil
}

// subscribed reads each audio track of a member; video is unsubscribed
// at once, and tracks of participants that are not members (other
// server-side participants) are not transcribed.
func (r *recorder) subscribed(track *webrtc.TrackRemote, pub *lksdk.RemoteTrackPublication, rp *lksdk.RemoteParticipant) {
	speaker, err := uuid.Parse(rp.Identity())
	if track.Kind() != webrtc.RTPCodecTypeAudio || err != nil || !strings.EqualFold(track.Codec().MimeType, webrtc.MimeTypeOpus) {
		_ = pub.SetSubscribed(false)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopping {
		return
	}
	r.readers.Add(1)
	go r.read(track, speaker)
}

// read decodes one track, cuts it into utterances and queues them.
func (r *recorder) read(track *webrtc.TrackRemote, speaker uuid.UUID) {
	defer r.readers.Done()
	dec, err := speech.NewOpusDecoder()
	if err != nil {
		r.s.log.Error("minutes: opus decoder", "err", err)
		return
	}
	defer dec.Close()
	seg := speech.NewSegmenter()
	var base time.Time
	var lastSeq uint16
	emit := func(u speech.Utterance) {
		r.queue <- utterance{speaker: speaker, at: base.Add(u.Start), pcm: u.PCM}
	}
	for {
		_ = track.SetReadDeadline(time.Now().Add(silenceFlush))
		pkt, _, err := track.ReadRTP()
		if err != nil {
			var timeout interface{ Timeout() bool }
			if errors.As(err, &timeout) && timeout.Timeout() {
				select {
				case <-r.quit:
				default:
					if u, ok := seg.Flush(); ok {
						emit(u)
					}
					continue
				}
			}
			break
		}
		if base.IsZero() {
			base = time.Now()
		} else if gap := pkt.SequenceNumber - lastSeq - 1; gap > 0 && gap < 5 {
			// A few lost packets are concealed, so the stream's clock
			// (its samples) keeps pace with the speaker's.
			for range gap {
				if pcm, err := dec.Decode(nil); err == nil {
					for _, u := range seg.Write(pcm) {
						emit(u)
					}
				}
			}
		}
		lastSeq = pkt.SequenceNumber
		pcm, err := dec.Decode(pkt.Payload)
		if err != nil {
			continue
		}
		for _, u := range seg.Write(pcm) {
			emit(u)
		}
	}
	if u, ok := seg.Flush(); ok {
		emit(u)
	}
}

// run transcribes the queued utterances until the recorder stops, then
// leaves the room and, when the Meet Up ended, compiles the minutes.
func (r *recorder) run() {
	defer close(r.done)
	transcribed := make(chan struct{})
	go func() {
		defer close(transcribed)
		for u := range r.queue {
			r.transcribe(u)
		}
	}()
	r.watch()

	r.room.Disconnect()
	r.readers.Wait()
	close(r.queue)
	<-transcribed
	r.s.mu.Lock()
	delete(r.s.recorders, r.id)
	r.s.mu.Unlock()

	r.mu.Lock()
	why := r.reason
	r.mu.Unlock()
	switch why {
	case stopEnded:
		r.s.compile(context.Background(), r.id)
	case stopCanceled:
		// An utterance transcribed while the cancel was written is not
		// kept: the insert checks the state, this catches the rest.
		if err := deleteTranscript(context.Background(), r.s.db, r.id); err != nil {
			r.s.log.Error("minutes: delete transcript", "room", r.id, "err", err)
		}
	}
}

// watch returns when the recorder is stopped, or stops it when its Meet Up
// ended (for all, or at its scheduled end) or its recording was canceled
// elsewhere (another node).
func (r *recorder) watch() {
	t := time.NewTicker(r.s.poll)
	defer t.Stop()
	for {
		select {
		case <-r.quit:
			return
		case <-t.C:
		}
		m, err := db.One[model.Meetings](context.Background(), r.s.db,
			SELECT(table.Meetings.AllColumns).FROM(table.Meetings).WHERE(table.Meetings.ID.EQ(UUID(r.id))))
		switch {
		case err != nil && errors.Is(err, context.Canceled):
			r.stop(stopShutdown)
		case err != nil:
			// The Meet Up was deleted (or the database is away: the
			// next tick tries again).
			if errors.Is(err, pgx.ErrNoRows) {
				r.stop(stopCanceled)
			}
		case m.MinutesState == nil || *m.MinutesState != StateStarted:
			r.stop(stopCanceled)
		case access.MeetingEndedOn(m.EndedOn, m.StartTime, int(m.Duration), r.s.now()) != nil:
			// Ended for all, or its scheduled end came: the Meet Up
			// is over whether or not the sweep has written it.
			r.stop(stopEnded)
		}
	}
}

// transcribe writes one utterance to the transcript, unless the recording
// was canceled meanwhile.
func (r *recorder) transcribe(u utterance) {
	text, err := r.rec.Transcribe(u.pcm)
	if err != nil {
		r.s.log.Warn("minutes: transcription failed", "room", r.id, "err", err)
		return
	}
	if text == "" {
		return
	}
	if n := []rune(text); len(n) > 4000 {
		text = string(n[:4000])
	}
	mt, m := table.MeetingTranscripts, table.Meetings
	next := r.seq + 1
	tag, err := db.Exec(context.Background(), r.s.db, mt.INSERT(mt.MeetingID, mt.Seq, mt.SpeakerID, mt.Text, mt.SpokenOn).
		QUERY(SELECT(m.ID, Int32(next), UUID(u.speaker), String(text), TimestampzT(u.at)).FROM(m).
			WHERE(m.ID.EQ(UUID(r.id)).AND(m.MinutesState.EQ(String(StateStarted))))))
	if err != nil {
		r.s.log.Error("minutes: transcript row", "room", r.id, "err", err)
		return
	}
	if tag.RowsAffected() > 0 {
		r.seq = next
	}
}
