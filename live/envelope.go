package live

import "encoding/json"

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
