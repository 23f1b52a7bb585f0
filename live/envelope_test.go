package live_test

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"agora/live"
)

// The envelope is a wire format the web app parses (web/src/lib/hub.ts
// routes by contextKey and event, and reads data.payload): its bytes stay
// exactly these.
func TestEncodeWireFormat(t *testing.T) {
	for _, c := range []struct {
		name, event, key string
		payload          any
		want             string
	}{
		{"an object", "user.connected", "user:42", map[string]string{"userId": "42", "status": "online"},
			`{"type":"api:messages:broadcast","contextKey":"user:42","event":"user.connected","data":{"payload":{"status":"online","userId":"42"}}}`},
		{"a struct keeps its tags", "series.deleted", "series:7", struct {
			ID string `json:"id"`
		}{"7"},
			`{"type":"api:messages:broadcast","contextKey":"series:7","event":"series.deleted","data":{"payload":{"id":"7"}}}`},
		{"no payload", "hub.presence", "user:1", nil,
			`{"type":"api:messages:broadcast","contextKey":"user:1","event":"hub.presence","data":{"payload":null}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := live.Encode(c.event, c.key, c.payload)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != c.want {
				t.Errorf("Encode\n got %s\nwant %s", b, c.want)
			}
			var m live.Message
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			if m.Type != live.MessageType || m.Event != c.event || m.ContextKey != c.key {
				t.Errorf("decoded %+v", m)
			}
		})
	}
}

// A payload that cannot be JSON is an error, never a frame.
func TestEncodeRefusesWhatIsNotJSON(t *testing.T) {
	if b, err := live.Encode("x.y", "user:1", math.Inf(1)); err == nil {
		t.Errorf("Encode(+Inf) = %s, want an error", b)
	}
}

// TestFrame: the messages queued behind one go in its frame, one per
// line, in order, until the frame reaches FrameBytes; the rest stay
// queued; Messages reads them back. The frame reuses the room it is given.
func TestFrame(t *testing.T) {
	queue := make(chan []byte, 8)
	if got := live.AppendFrame(nil, []byte(`{"a":1}`), queue); string(got) != `{"a":1}` {
		t.Errorf("nothing queued: frame %s", got)
	}
	queue <- []byte(`{"b":"x\ny"}`) // a newline in a string is escaped by encoding/json
	queue <- []byte(`{"c":3}`)
	room := make([]byte, 0, 64)
	frame := live.AppendFrame(append(room, "old frame"...), []byte(`{"a":1}`), queue)
	if got := live.Messages(frame); len(got) != 3 || string(got[0]) != `{"a":1}` || string(got[1]) != `{"b":"x\ny"}` || string(got[2]) != `{"c":3}` {
		t.Errorf("messages %q", got)
	}
	if &frame[0] != &room[:1][0] {
		t.Error("the frame did not reuse the room it was given")
	}
	big := bytes.Repeat([]byte("x"), live.FrameBytes/2)
	for range 4 {
		queue <- big
	}
	frame = live.AppendFrame(frame, big, queue)
	if n := len(live.Messages(frame)); n != 2 || len(queue) != 3 {
		t.Errorf("a frame of %d messages (%d bytes), %d left queued; want 2 and 3", n, len(frame), len(queue))
	}
}
