package realtime_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"agora/projections/change"
	"agora/projections/realtime"
)

// TestChatEvents: which changes of private chat's tables make events, and
// for whom.
func TestChatEvents(t *testing.T) {
	msg := func(raw, updated string) string {
		return `{"id":"` + pid.String() + `","channel_id":"` + cid.String() + `","creator_id":"` + uid.String() + `","raw":"` + raw +
			`","image":null,"link":null,"file":null,"created_on":"2026-11-22T08:27:03.123Z","updated_on":"` + updated + `"}`
	}
	member := func(seen string) string {
		return `{"channel_id":"` + cid.String() + `","user_id":"` + uid.String() + `","last_seen_on":` + seen + `}`
	}
	// jsonb travels as its text, as the relay sends it.
	personal := func(data string) string {
		b, _ := json.Marshal(data)
		return `{"user_id":"` + uid.String() + `","data":` + string(b) + `}`
	}
	reaction := func(kind string) string {
		return `{"message_id":"` + pid.String() + `","user_id":"` + uid.String() + `","reaction":"` + kind + `"}`
	}
	channel := []realtime.Audience{{Kind: realtime.PrivateChannelMembers, ID: cid}}
	cases := []struct {
		name          string
		table         string
		op            change.Op
		before, after string
		// want are the events' types and, for each, its audience; nil: none.
		want []string
		to   []realtime.Audience
		keys []string
	}{
		{"a message", "private_messages", change.Create, "", msg("hi", "2026-11-22T08:27:03.123Z"), []string{realtime.ThreadCreated}, channel, nil},
		{"an edit", "private_messages", change.Update, msg("hi", "2026-11-22T08:27:03.123Z"), msg("hello", "2026-11-22T08:28:00Z"), []string{realtime.ThreadUpdated}, channel, nil},
		{"only updated_on", "private_messages", change.Update, msg("hi", "2026-11-22T08:27:03.123Z"), msg("hi", "2026-11-22T08:28:00Z"), nil, nil, nil},
		{"a deletion", "private_messages", change.Delete, msg("hi", "2026-11-22T08:27:03.123Z"), "", []string{realtime.ThreadDeleted}, channel, nil},
		{"a reaction", "private_message_reactions", change.Create, "", reaction("liked"), []string{realtime.Reacted},
			[]realtime.Audience{{Kind: realtime.PrivateMessageMembers, ID: pid}}, nil},
		{"the same reaction", "private_message_reactions", change.Update, reaction("liked"), reaction("liked"), nil, nil, nil},
		{"seen", "channel_members", change.Update, member("null"), member(`"2026-11-22T08:27:03.123Z"`), []string{realtime.PrivateChannelSeen},
			[]realtime.Audience{{Kind: realtime.TheUser, ID: uid}}, nil},
		{"a member added", "channel_members", change.Create, "", member("null"), nil, nil, nil},
		{"personalization", "user_personalization", change.Update, personal(`{"a.b":1,"a.c":[1],"a.d":true}`), personal(`{"a.b":2,"a.c":[1],"a.e":null}`),
			[]string{realtime.PersonalizationUpdated}, []realtime.Audience{{Kind: realtime.TheUser, ID: uid}}, []string{"a.b", "a.d", "a.e"}},
		{"personalization unchanged", "user_personalization", change.Update, personal(`{"a.b":1}`), personal(`{"a.b": 1}`), nil, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := realtime.Events(change.Change{Op: c.op, Schema: "public", Table: c.table, Before: row(t, c.before), After: row(t, c.after)})
			if err != nil {
				t.Fatal(err)
			}
			var types []string
			for _, e := range got {
				types = append(types, e.Type)
				if !reflect.DeepEqual(e.To, c.to) {
					t.Errorf("%s to %+v, want %+v", e.Type, e.To, c.to)
				}
				if p, ok := e.Payload.(realtime.PersonalizationKeys); ok && !reflect.DeepEqual(p.Keys, c.keys) {
					t.Errorf("keys %v, want %v", p.Keys, c.keys)
				}
			}
			if !reflect.DeepEqual(types, c.want) {
				t.Errorf("events %v, want %v", types, c.want)
			}
		})
	}
}
