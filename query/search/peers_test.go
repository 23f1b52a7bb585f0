package search_test

import (
	"slices"
	"testing"

	"github.com/google/uuid"

	"agora/app/testenv"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/paging"
	"agora/internal/rules/access"
	"agora/query/search"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// TestPeerPinning: the peers with an unseen chat come first, in the
// list's own order among themselves, and the others follow as before.
func TestPeerPinning(t *testing.T) {
	env := testenv.New(t)
	ctx := t.Context()
	var member uuid.UUID
	if err := env.DB.Pool.QueryRow(ctx, "SELECT id FROM users WHERE email = 'member@demo.agora'").Scan(&member); err != nil {
		t.Fatal(err)
	}
	q := search.NewPeersOnly(env.DB)
	communities, err := access.ActiveCommunities(ctx, env.DB.Pool, member)
	if err != nil {
		t.Fatal(err)
	}
	in := search.PeerSearch{Caller: auth.Caller{UserID: member}, Request: paging.Request{Page: 1, PageSize: search.MaxPeerPageSize}}
	ids := func(pinned []uuid.UUID) []uuid.UUID {
		t.Helper()
		page, err := q.PinnedPeerPage(ctx, in, communities, pinned)
		if err != nil {
			t.Fatal(err)
		}
		out := []uuid.UUID{}
		for _, p := range page.Results {
			out = append(out, p.ID)
		}
		return out
	}
	plain := ids(nil)
	if len(plain) < 4 {
		t.Fatalf("the demo member has %d peers, want at least 4", len(plain))
	}
	last, third := plain[len(plain)-1], plain[2]
	want := append([]uuid.UUID{third, last}, slices.DeleteFunc(slices.Clone(plain), func(id uuid.UUID) bool { return id == last || id == third })...)
	if got := ids([]uuid.UUID{last, third, uuid.New()}); !slices.Equal(got, want) {
		t.Errorf("pinned order %v, want %v", got, want)
	}
}
