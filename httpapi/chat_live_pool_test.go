package httpapi_test

import (
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/app/testenv"
	"agora/projections/realtime"
)

// TestChatLiveWhileRequestsHoldThePool: the realtime projection reads
// over connections of its own, so a private message still reaches the
// other member while the requests hold every connection of the API's pool
// (at 200 messages a second on a busy machine its reads queued there
// behind them for seconds). The message is written on a connection of the
// test's own, as another node would.
func TestChatLiveWhileRequestsHoldThePool(t *testing.T) {
	pipe := testenv.StartPipeline(t)
	env := testenv.NewLive(t, testenv.Live{Pipeline: pipe})
	f := newChatFixture(t, env)
	b := dial(t, env, "", bearer(f.b.Client.Token))
	b.t = t
	first := send(t, f.a.Client, f.b.UserID, "before")
	key := "channel:" + first.ChannelID
	b.waitFor(liveWait, "the first message", is(realtime.ThreadCreated, key))

	ctx := t.Context()
	conn, err := pgx.Connect(ctx, env.DBURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	// Every connection of the API's pool (the test database's, which the
	// server was built on) is taken until the message has arrived.
	var held []*pgxpool.Conn
	defer func() {
		for _, c := range held {
			c.Release()
		}
	}()
	for range env.DB.Pool.Config().MaxConns {
		c, err := env.DB.Pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	id := uuid.Must(uuid.NewV7())
	if _, err := conn.Exec(ctx, `INSERT INTO private_messages (id, channel_id, creator_id, raw, created_on, updated_on)
		VALUES ($1, $2, $3, 'while busy', now(), now())`, id, first.ChannelID, f.a.UserID); err != nil {
		t.Fatal(err)
	}
	got := b.waitFor(liveWait, "the message written while the pool is held", func(m hubMsg) bool {
		return is(realtime.ThreadCreated, key)(m) && m.Payload["id"] == id.String()
	})
	if got.Payload["raw"] != "while busy" || got.Payload["isMine"] != false {
		t.Errorf("payload %s", got.Raw)
	}
}
