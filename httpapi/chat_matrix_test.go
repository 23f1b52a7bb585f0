package httpapi_test

import (
	"slices"
	"testing"

	"agora/app/testenv"
)

// TestMatrixChat: every private chat and personalization call by role (the
// author of a message, the other member of its channel, a third member of
// their community, an admin of the community, a super user, an outsider
// and a guest), with the documented status and code, and nothing written
// on refusal.
func TestMatrixChat(t *testing.T) {
	env := testenv.New(t)
	f := newChatFixture(t, env)
	m := send(t, f.a.Client, f.b.UserID, "the matrix message")
	roles := []matrixRole{
		{"author", f.a.Client}, {"other member", f.b.Client}, {"third member", f.third.Client},
		{"community admin", f.cadmin.Client}, {"super", f.super}, {"outsider", f.outsider}, {"guest", f.guest},
	}
	// members is the outcome of a call on the channel: its two members
	// only; to anyone else it is unknown.
	members := func(author, other outcome) map[string]outcome {
		return map[string]outcome{"author": author, "other member": other, "third member": hidden, "community admin": hidden,
			"super": hidden, "outsider": hidden, "guest": guestRefused}
	}
	everyone := func(ok int) map[string]outcome {
		return map[string]outcome{"author": allowed(ok), "other member": allowed(ok), "third member": allowed(ok), "community admin": allowed(ok),
			"super": allowed(ok), "outsider": allowed(ok), "guest": guestRefused}
	}
	// A user's own: no one else reads it, so to them it is unknown.
	self := func(ok int) map[string]outcome {
		return map[string]outcome{"author": allowed(ok), "other member": hidden, "third member": hidden, "community admin": hidden,
			"super": hidden, "outsider": hidden, "guest": guestRefused}
	}
	newMessage := func(t *testing.T) string {
		return "/api/threads/private/" + send(t, f.a.Client, f.b.UserID, "to delete").ID
	}
	channel, message := "/api/channels/private/"+m.ChannelID, "/api/threads/private/"+m.ID
	personalization := "/api/users/" + f.a.UserID + "/personalization"
	withPeer, invalid := "/api/channels/private?peerId="+f.b.UserID, outcome{400, "validationFailed"}
	// Only the author has a channel with the other member (until the
	// matrix's sends make more); to anyone else it is no channel of theirs.
	for _, role := range roles[:len(roles)-1] {
		got := listChannels(t, role.c, "peerId="+f.b.UserID)
		var ids []string
		for _, c := range got.Results {
			ids = append(ids, c.ID)
		}
		want := []string(nil)
		if role.name == "author" {
			want = []string{m.ChannelID}
		}
		if !slices.Equal(ids, want) || got.Total != len(want) {
			t.Errorf("%s finds channels %v (total %d) with the other member, want %v", role.name, ids, got.Total, want)
		}
	}
	calls := []matrixCall{
		// Anyone who shares a community with the other member may write to
		// them; the other member themself may not write to themself.
		{"send to the other member", "POST", fixed("/api/threads/private"), map[string]any{"memberIds": []string{f.b.UserID}, "raw": "hi"},
			map[string]outcome{"author": allowed(201), "other member": {400, "validationFailed"}, "third member": allowed(201),
				"community admin": allowed(201), "super": forbidden, "outsider": forbidden, "guest": guestRefused}},
		{"list channels", "GET", fixed("/api/channels/private"), nil, everyone(200)},
		{"find the channel with the other member", "GET", fixed(withPeer), nil, everyone(200)},
		{"find a channel by a bad peer id", "GET", fixed("/api/channels/private?peerId=nobody"), nil,
			map[string]outcome{"author": invalid, "other member": invalid, "third member": invalid, "community admin": invalid,
				"super": invalid, "outsider": invalid, "guest": guestRefused}},
		{"read the conversation", "GET", fixed(channel + "/threads"), nil, members(allowed(200), allowed(200))},
		{"mark seen", "POST", fixed(channel + "/seen"), nil, members(allowed(204), allowed(204))},
		{"edit", "PATCH", fixed(message), map[string]any{"raw": "edited"}, members(allowed(200), forbidden)},
		{"delete", "DELETE", newMessage, nil, members(allowed(204), forbidden)},
		{"react", "PUT", fixed(message + "/reaction"), map[string]any{"reaction": "liked"}, members(outcome{400, "ownReaction"}, allowed(200))},
		{"read the personalization", "GET", fixed(personalization), nil, self(200)},
		{"change the personalization", "PATCH", fixed(personalization), map[string]any{"feed.webLink.dontConfirmNavigation": true}, self(200)},
	}
	runMatrix(t, roles, func(t *testing.T) string { return chatDigest(t, env) }, calls)
}
