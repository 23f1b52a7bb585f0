package httpapi_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"agora/app/seed"
	"agora/app/testenv"
	"agora/internal/plumbing/config"
)

// TestPictures: an uploaded image set as a community's or a forum's image
// or a member's avatar is kept at a lasting address (its upload's read URL lives hours):
// the address redirects to a fresh read URL, the sweep leaves the upload a
// day later and the quota does not count it; replaced, it is swept. Only
// one's own upload can be set, and another place's picture cannot be
// borrowed.
func TestPictures(t *testing.T) {
	e := newUploadEnv(t)
	admin := e.As(t, seed.AdminEmail)
	member := e.As(t, seed.MemberEmail)
	community := newCommunity(t, e.Env)
	img := e.upload(t, admin, "image", "cover.png", "image/png", pngBytes(t, 4, 4))

	r := admin.Do("PATCH", "/api/communities/"+community, map[string]any{"image": img.URL})
	wantStatus(t, r, 204)
	address := queryString(t, e.Env, "SELECT image FROM communities WHERE id = $1", community)
	if address != "/api/pictures/"+img.ID {
		t.Fatalf("stored image %q, want the picture address of %s", address, img.ID)
	}
	var c struct{ Image *string }
	got := admin.Do("GET", "/api/communities/"+community, nil)
	wantStatus(t, got, 200)
	got.JSON(t, &c)
	if c.Image == nil || *c.Image != address {
		t.Errorf("the community answers image %v, want %s", c.Image, address)
	}
	// Anyone's browser (an <img> sends no token) is sent to a fresh URL.
	p := e.Client(t).Do("GET", address, nil)
	if p.Status != http.StatusFound || !strings.Contains(p.Header.Get("Location"), "/api/blobs/"+img.ID+"/") ||
		!strings.HasPrefix(p.Header.Get("Cache-Control"), "private, max-age=") {
		t.Fatalf("GET %s: %d, Location %q, Cache-Control %q", address, p.Status, p.Header.Get("Location"), p.Header.Get("Cache-Control"))
	}
	if b := e.Client(t).Do("GET", e.local(t, p.Header.Get("Location")), nil); b.Status != 200 || len(b.Body) == 0 {
		t.Errorf("the picture's blob: %d", b.Status)
	}
	// Sending the same address back (an edit form) keeps it.
	wantStatus(t, admin.Do("PATCH", "/api/communities/"+community, map[string]any{"image": address}), 204)

	t.Run("a member's avatar", func(t *testing.T) {
		m := newMember(t, e.Env, "avatar")
		joinForum(t, e.Env, m, newFeedFixture(t).welcome)
		a := e.upload(t, m.Client, "image", "me.png", "image/png", pngBytes(t, 8, 8))
		wantStatus(t, m.Client.Do("PATCH", "/api/users/me", map[string]any{"avatar": a.URL}), 200)
		if got := queryString(t, e.Env, "SELECT avatar FROM users WHERE id = $1", m.UserID); got != "/api/pictures/"+a.ID {
			t.Errorf("stored avatar %q", got)
		}
	})

	t.Run("a forum's image", func(t *testing.T) {
		// Made with an upload, the forum keeps it at its lasting address, as
		// a community does; sent back unchanged from an edit form, it stays.
		cover := e.upload(t, admin, "image", "forum.png", "image/png", pngBytes(t, 4, 4))
		r := admin.Do("POST", "/api/communities/"+community+"/series", map[string]any{"name": testenv.Unique("Forum"), "description": "d", "image": cover.URL})
		wantStatus(t, r, 201)
		var f struct {
			ID    string  `json:"id"`
			Image *string `json:"image"`
		}
		r.JSON(t, &f)
		kept := "/api/pictures/" + cover.ID
		if f.Image == nil || *f.Image != kept {
			t.Fatalf("the new forum answers image %v, want %s", f.Image, kept)
		}
		if e.Count(t, "uploads", "id = $1 AND picture", cover.ID) != 1 {
			t.Error("the forum's image was not kept as a picture")
		}
		wantStatus(t, admin.Do("PATCH", "/api/series/"+f.ID, map[string]any{"image": kept}), 200)
		// A new upload replaces it (PATCH); someone else's upload or another
		// place's picture is refused.
		next := e.upload(t, admin, "image", "forum2.png", "image/png", pngBytes(t, 4, 4))
		wantStatus(t, admin.Do("PATCH", "/api/series/"+f.ID, map[string]any{"image": next.URL}), 200)
		if got := queryString(t, e.Env, "SELECT image FROM series WHERE id = $1", f.ID); got != "/api/pictures/"+next.ID {
			t.Errorf("stored forum image %q, want the picture address of %s", got, next.ID)
		}
		theirs := e.upload(t, member, "image", "theirs.png", "image/png", pngBytes(t, 2, 2))
		wantInvalid(t, admin.Do("PATCH", "/api/series/"+f.ID, map[string]any{"image": theirs.URL}), "image")
		wantInvalid(t, admin.Do("PATCH", "/api/series/"+f.ID, map[string]any{"image": address}), "image")
		// The sweep leaves the picture a forum shows.
		exec(t, e.Env, `UPDATE uploads SET created_on = now() - interval '2 days' WHERE id = $1`, next.ID)
		gone := e.upload(t, admin, "image", "unused-forum.png", "image/png", pngBytes(t, 2, 2))
		exec(t, e.Env, `UPDATE uploads SET created_on = now() - interval '2 days' WHERE id = $1`, gone.ID)
		testenv.New(t, func(c *config.Config) { c.Blobs.Dir = e.dir })
		eventually(t, func() bool { return e.Count(t, "uploads", "id = $1", gone.ID) == 0 })
		if e.Count(t, "uploads", "id = $1", next.ID) != 1 {
			t.Error("the sweep took the picture a forum shows")
		}
	})

	t.Run("refused", func(t *testing.T) {
		mine := e.upload(t, member, "image", "mine.png", "image/png", pngBytes(t, 2, 2))
		// Someone else's upload, and another place's picture.
		wantInvalid(t, admin.Do("PATCH", "/api/communities/"+community, map[string]any{"image": mine.URL}), "image")
		wantInvalid(t, member.Do("PATCH", "/api/users/me", map[string]any{"avatar": address}), "avatar")
		if n := e.Count(t, "uploads", "id = $1 AND picture", mine.ID); n != 0 {
			t.Error("a refused image was kept as a picture")
		}
	})

	t.Run("the quota does not count a picture", func(t *testing.T) {
		png := pngBytes(t, 4, 4)
		q := &uploadEnv{Env: testenv.New(t, func(c *config.Config) { c.Blobs.Dir, c.Blobs.UploadQuota = e.dir, int64(len(png))+10 }), dir: e.dir}
		m := newMember(t, q.Env, "quota")
		joinForum(t, q.Env, m, newFeedFixture(t).welcome)
		a := q.upload(t, m.Client, "image", "me.png", "image/png", png)
		wantError(t, m.Client.Do("POST", "/api/sas", map[string]any{"kind": "image", "name": "b.png", "mediaType": "image/png", "size": len(png)}), 413, "uploadQuotaExceeded")
		wantStatus(t, m.Client.Do("PATCH", "/api/users/me", map[string]any{"avatar": a.URL}), 200)
		sas(t, m.Client, "image", "b.png", "image/png", len(png))
	})

	t.Run("the sweep and the quota leave a picture shown, and take one replaced", func(t *testing.T) {
		// An upload shown nowhere, as old: its going shows the sweep ran.
		gone := e.upload(t, admin, "image", "unused.png", "image/png", pngBytes(t, 2, 2))
		exec(t, e.Env, `UPDATE uploads SET created_on = now() - interval '2 days' WHERE id = ANY($1::uuid[])`, []string{img.ID, gone.ID})
		testenv.New(t, func(c *config.Config) { c.Blobs.Dir = e.dir }) // a node sweeps when it starts
		eventually(t, func() bool { return e.Count(t, "uploads", "id = $1", gone.ID) == 0 })
		if e.Count(t, "uploads", "id = $1", img.ID) != 1 || !slices.Contains(e.files(t, "objects"), img.ID) {
			t.Fatal("the sweep took a picture that is shown")
		}
		wantStatus(t, e.Client(t).Do("GET", address, nil), http.StatusFound)

		wantStatus(t, admin.Do("PATCH", "/api/communities/"+community, map[string]any{"image": "https://images.example.test/other.png"}), 204)
		testenv.New(t, func(c *config.Config) { c.Blobs.Dir = e.dir })
		// The sweep deletes the rows, then their blobs (command/upload's
		// Sweep): the blob may still be there just after the row went.
		eventually(t, func() bool { return e.Count(t, "uploads", "id = $1", img.ID) == 0 })
		eventually(t, func() bool { return !slices.Contains(e.files(t, "objects"), img.ID) })
		wantError(t, e.Client(t).Do("GET", address, nil), 404, "notFound")
	})
}
