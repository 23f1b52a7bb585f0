package httpapi_test

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/app/seed"
	"agora/app/testenv"
	"agora/internal/adapters/blob"
)

// TestPostAttachmentsMustBeOwnUploads: a post may show only the poster's
// own completed uploads, of the right kind; refusals write nothing. Images
// elsewhere on the web stay allowed.
func TestPostAttachmentsMustBeOwnUploads(t *testing.T) {
	e := newUploadEnv(t)
	f := newFeedFixture(t)
	member, expert, admin := e.As(t, seed.MemberEmail), e.As(t, seed.ExpertEmail), e.As(t, seed.AdminEmail)
	memberID := userID(t, e.Env, seed.MemberEmail)

	theirs := e.upload(t, expert, "file", "expert.pdf", "application/pdf", pdfBytes)
	theirImage := e.upload(t, expert, "image", "expert.png", "image/png", pngBytes(t, 4, 4))
	mine := e.upload(t, member, "file", "mine.pdf", "application/pdf", pdfBytes)
	myImage := e.upload(t, member, "image", "mine.png", "image/png", pngBytes(t, 5, 5))
	pending := sas(t, member, "file", "later.pdf", "application/pdf", len(pdfBytes))
	pendingURL := strings.Replace(mine.URL, mine.ID, pending.ID, 1)
	fileOf := func(u uploadResult) map[string]any {
		return map[string]any{"id": u.ID, "name": u.Name, "url": u.URL, "mediaType": u.MediaType}
	}

	base := map[string]any{"channelId": f.welcomeMain, "raw": "see attached"}
	with := func(k string, v any) map[string]any {
		b := map[string]any{}
		for kk, vv := range base {
			b[kk] = vv
		}
		b[k] = v
		return b
	}
	before := e.Count(t, "threads", "creator_id = $1", memberID)
	for name, c := range map[string]struct {
		body  map[string]any
		field string
	}{
		"someone else's file":             {with("file", fileOf(theirs)), "file"},
		"someone else's file, by URL":     {with("file", map[string]any{"name": "x.pdf", "url": theirs.URL, "mediaType": "application/pdf"}), "file"},
		"someone else's image":            {with("image", map[string]any{"url": theirImage.URL}), "image"},
		"an unknown upload":               {with("file", map[string]any{"id": uuid.NewString(), "name": "x", "url": "https://f.test/x", "mediaType": "x/y"}), "file"},
		"an id that is not one":           {with("file", map[string]any{"id": "42", "name": "x", "url": "https://f.test/x", "mediaType": "x/y"}), "file"},
		"a pending upload":                {with("file", map[string]any{"id": pending.ID, "name": "later.pdf", "url": pendingURL, "mediaType": "application/pdf"}), "file"},
		"a file upload as the image":      {with("image", map[string]any{"url": mine.URL}), "image"},
		"an image upload as the file":     {with("file", fileOf(myImage)), "file"},
		"a blob URL of an unknown upload": {with("image", map[string]any{"url": strings.Replace(myImage.URL, myImage.ID, uuid.NewString(), 1)}), "image"},
		"an image elsewhere on the web":   {with("image", map[string]any{"url": "https://img.test/elsewhere.png"}), "image"},
		"a file elsewhere on the web":     {with("file", map[string]any{"name": "x.pdf", "url": "https://evil.test/page.html", "mediaType": "application/pdf"}), "file"},
	} {
		t.Run(name, func(t *testing.T) {
			er := wantError(t, member.Do("POST", "/api/series/"+f.welcome+"/threads", c.body), 400, "feedPostCreating")
			if fields, _ := er.Details["fields"].(map[string]any); fields[c.field] == nil {
				t.Errorf("details.fields = %v, want %s", er.Details["fields"], c.field)
			}
		})
	}
	if after := e.Count(t, "threads", "creator_id = $1", memberID); after != before {
		t.Fatalf("refused posts wrote %d threads", after-before)
	}

	// The member's own uploads are attached with their own name, URL and
	// served type, whatever the client claimed.
	claimed := fileOf(mine)
	claimed["name"], claimed["mediaType"], claimed["url"] = "renamed.exe", "text/html", "https://evil.test/x"
	r := member.Do("POST", "/api/series/"+f.welcome+"/threads", map[string]any{"channelId": f.welcomeMain, "raw": "mine", "file": claimed, "image": map[string]any{"url": myImage.URL}})
	if r.Status != 201 {
		t.Fatalf("post with own uploads: %d %s", r.Status, r.Body)
	}
	var th struct {
		ID   string `json:"id"`
		File struct {
			ID        string `json:"id"`
			Name      string `json:"name"`
			URL       string `json:"url"`
			MediaType string `json:"mediaType"`
		} `json:"file"`
	}
	r.JSON(t, &th)
	if th.File.ID != mine.ID || th.File.Name != "mine.pdf" || th.File.MediaType != "application/pdf" || !strings.HasPrefix(th.File.URL, e.URL+blob.PathPrefix+mine.ID+"/") {
		t.Errorf("file = %+v, want the upload's own", th.File)
	}
	// An upload is on one post only.
	wantError(t, member.Do("POST", "/api/series/"+f.welcome+"/threads", with("file", fileOf(mine))), 400, "feedPostCreating")

	// A forum admin may edit the text of the member's post, which keeps the
	// member's uploads; the admin may not put the member's upload on a post.
	path := "/api/threads/" + th.ID
	if r := admin.Do("PATCH", path, map[string]any{"raw": "moderated", "file": fileOf(mine), "image": map[string]any{"url": myImage.URL}}); r.Status != 200 {
		t.Errorf("admin edits a post with uploads: %d %s", r.Status, r.Body)
	}
	adminPost := post(t, admin, f.welcome, map[string]any{"channelId": f.welcomeMain, "raw": "admin's"})
	er := wantError(t, admin.Do("PATCH", "/api/threads/"+adminPost.ID, map[string]any{"file": fileOf(mine)}), 400, "feedPostUpdating")
	if fields, _ := er.Details["fields"].(map[string]any); fields["file"] == nil {
		t.Errorf("details.fields = %v", er.Details["fields"])
	}
	if n := e.Count(t, "threads", "id = $1 AND file IS NULL", adminPost.ID); n != 1 {
		t.Error("the refused edit attached the file")
	}
	// The member swaps the file for another of someone else's: refused.
	wantError(t, member.Do("PATCH", path, map[string]any{"file": fileOf(theirs)}), 400, "feedPostUpdating")
	if n := e.Count(t, "threads", "id = $1 AND file->>'id' = $2", th.ID, mine.ID); n != 1 {
		t.Error("the refused edit changed the file")
	}
}

// joinForum makes m an active member of forum, as an assignment would.
func joinForum(t *testing.T, env *testenv.Env, m member, forum string) {
	t.Helper()
	exec(t, env, `INSERT INTO series_memberships (series_id, profile_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, forum, m.ProfileID)
}

// TestPostAttachmentsGoWithThePost: a post keeps its upload's id and each
// read signs a short-lived URL; deleting the post, or an edit replacing its
// file, ends its blob's URLs; a URL living longer than AGORA_BLOB_URL_TTL
// (as the ten-year URLs did) is refused (F7).
func TestPostAttachmentsGoWithThePost(t *testing.T) {
	e := newUploadEnv(t)
	f := newFeedFixture(t)
	member := e.As(t, seed.MemberEmail)
	anon := e.Client(t)
	img := e.upload(t, member, "image", "a.png", "image/png", pngBytes(t, 6, 6))
	file := e.upload(t, member, "file", "a.pdf", "application/pdf", pdfBytes)
	th := post(t, member, f.welcome, map[string]any{"channelId": f.welcomeMain, "raw": "with files",
		"image": map[string]any{"url": img.URL}, "file": map[string]any{"id": file.ID, "name": file.Name, "url": file.URL, "mediaType": file.MediaType}})
	if n := e.Count(t, "threads", "id = $1 AND image->>'url' IS NULL AND file->>'url' IS NULL AND file->>'id' = $2", th.ID, file.ID); n != 1 {
		t.Error("the post keeps a URL, not the upload's id")
	}

	// Reading the post signs URLs that work and expire within the TTL.
	var got struct {
		Image struct{ URL string } `json:"image"`
		File  struct{ URL string } `json:"file"`
	}
	member.Do("GET", "/api/threads/"+th.ID, nil).JSON(t, &got)
	for _, u := range []string{got.Image.URL, got.File.URL} {
		if r := anon.Do("GET", e.local(t, u), nil); r.Status != 200 {
			t.Errorf("GET %s: %d", u, r.Status)
		}
		pu, _ := url.Parse(u)
		exp, _ := strconv.ParseInt(pu.Query().Get("exp"), 10, 64)
		if left := time.Until(time.Unix(exp, 0)); left <= 0 || left > e.Config.Blobs.ReadURLTTL {
			t.Errorf("URL %s lives %v, want at most %v", u, left, e.Config.Blobs.ReadURLTTL)
		}
	}

	// A URL signed for longer than the TTL is refused, signature and all.
	store, err := blob.New(e.dir, "")
	if err != nil {
		t.Fatal(err)
	}
	long, err := store.URL(e.URL, uuid.MustParse(file.ID), file.Name, "GET", time.Now().Add(10*365*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	wantError(t, anon.Do("GET", e.local(t, long), nil), 403, "blobSignatureExpired")

	// An edit replacing the file removes the old one.
	other := e.upload(t, member, "file", "b.pdf", "application/pdf", pdfBytes)
	if r := member.Do("PATCH", "/api/threads/"+th.ID, map[string]any{"file": map[string]any{"id": other.ID, "name": other.Name, "url": other.URL, "mediaType": other.MediaType}}); r.Status != 200 {
		t.Fatalf("edit: %d %s", r.Status, r.Body)
	}
	if r := anon.Do("GET", e.local(t, got.File.URL), nil); r.Status != 404 {
		t.Errorf("the replaced file's URL answers %d, want 404", r.Status)
	}
	if r := anon.Do("GET", e.local(t, got.Image.URL), nil); r.Status != 200 {
		t.Errorf("the kept image's URL answers %d, want 200", r.Status)
	}

	// Deleting the post ends its uploads' URLs and blobs.
	if r := member.Do("DELETE", "/api/threads/"+th.ID, nil); r.Status != 200 && r.Status != 204 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	for _, u := range []string{got.Image.URL, other.URL} {
		if r := anon.Do("GET", e.local(t, u), nil); r.Status != 404 {
			t.Errorf("after delete, %s answers %d, want 404", u, r.Status)
		}
	}
	for _, id := range []string{img.ID, file.ID, other.ID} {
		if slices.Contains(e.files(t, "objects"), id) || e.Count(t, "uploads", "id = $1", id) != 0 {
			t.Errorf("upload %s outlived its post", id)
		}
	}
}
