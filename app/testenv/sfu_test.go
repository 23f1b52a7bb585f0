package testenv

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	lksdk "github.com/livekit/server-sdk-go/v2"

	"agora/internal/adapters/sfu"
)

func TestMain(m *testing.M) { Main(m) }

// TestSharedSFU: an API server of the harness gets the test binary's
// livekit-server, whose webhooks reach the binary's API servers: the most
// recent first, the next one when it refuses.
func TestSharedSFU(t *testing.T) {
	env := New(t)
	if env.Config.LiveKit.URL == "" || env.Config.LiveKit.APIKey == "" {
		t.Fatalf("the API server has no SFU: %+v", env.Config.LiveKit)
	}
	if other := New(t); other.Config.LiveKit != env.Config.LiveKit {
		t.Error("two API servers of one test binary have different SFUs")
	}
	client := env.SFU(t)

	type post struct {
		body []byte
		auth string
	}
	accepted := make(chan post, 16)
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.URL.Path == sfu.WebhookPath {
			accepted <- post{body, r.Header.Get("Authorization")}
		}
	}))
	defer ok.Close()
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer refusing.Close()
	defer sfuHooks.add(ok.URL)()
	defer sfuHooks.add(refusing.URL)()

	room := Unique("harness-room")
	if err := client.CreateRoom(context.Background(), room, time.Minute, 0); err != nil {
		t.Fatal(err)
	}
	tok, err := client.Token(sfu.Grant{Room: room, Identity: "dana", CanSubscribe: true})
	if err != nil {
		t.Fatal(err)
	}
	r, err := lksdk.ConnectToRoomWithToken(client.URL(), tok, lksdk.NewRoomCallback())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Disconnect()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case p := <-accepted:
			if !bytes.Contains(p.body, []byte(room)) || !bytes.Contains(p.body, []byte(sfu.EventParticipantJoined)) {
				continue
			}
			ev, err := client.ReceiveWebhook(p.body, p.auth)
			if err != nil || ev.Identity != "dana" || ev.Room != room {
				t.Fatalf("relayed webhook: %+v, %v", ev, err)
			}
			return
		case <-deadline:
			t.Fatal("participant_joined was not relayed")
		}
	}
}
