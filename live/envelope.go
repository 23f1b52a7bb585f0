package live

import (
	"bytes"
	"encoding/json"
)

// MessageType is the type of every message the hub sends (spec 000 §7).
const MessageType = "api:messages:broadcast"

// Message is the envelope of every frame the hub sends to a browser
// (web/src/lib/hub.ts reads it): the message type, the context key that
// routes it ("user:<id>", "thread:<id>"…), the event's name and its
// payload under data.payload. The hub owns it, so that the projection that
// feeds the hub and the transport's own frames (the first messages of a
// connection) wrap their events alike.
type Message struct {
	Type       string      `json:"type"`
	ContextKey string      `json:"contextKey"`
	Event      string      `json:"event"`
	Data       MessageData `json:"data"`
}

// MessageData wraps the payload as the client expects it.
type MessageData struct {
	Payload any `json:"payload"`
}

// Encode is the frame of the event named event, routed by contextKey,
// carrying payload (which must marshal to JSON).
func Encode(event, contextKey string, payload any) ([]byte, error) {
	return json.Marshal(Message{Type: MessageType, ContextKey: contextKey, Event: event, Data: MessageData{Payload: payload}})
}

// A frame the hub writes holds one message or several, one per line: a
// connection whose messages queued up while its writer waited (for a core,
// or out the least time between two frames) gets them in one frame of about FrameBytes at most, so that a busy node
// makes one write to the socket, and the reader one wake-up, for what
// would have been many. A message is JSON as encoding/json writes it, with
// no raw newline, so a newline only ever separates two.
const FrameBytes = 16 << 10

// AppendFrame appends to dst msg and the messages queued behind it, taken
// from queue without waiting, until the frame reaches FrameBytes (the last
// one may take it past). A writer passes the same dst each time (its
// previous frame written), so that a frame allocates nothing.
func AppendFrame(dst, msg []byte, queue <-chan []byte) []byte {
	b := append(dst[:0], msg...)
	for len(b) < FrameBytes {
		select {
		case m := <-queue:
			b = append(append(b, '\n'), m...)
		default:
			return b
		}
	}
	return b
}

// Messages are the messages of a frame, in order.
func Messages(frame []byte) [][]byte {
	return bytes.Split(frame, []byte{'\n'})
}
