package main

// A full disk in the data folder under continuous writes: the stack's data
// folder on a tmpfs of its own, filled with a ballast file, then emptied.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/app/seed"
)

// diskSize is the tmpfs of TestFaultDiskFull: the stack takes about 45 MB
// of it, and the ballast the rest, in memory as all of a tmpfs.
const diskSize = 256 << 20

// mountDisk mounts a tmpfs of size bytes on dir (root only: make test runs
// as root) and unmounts it when the test ends, after the stack's processes.
func mountDisk(t *testing.T, dir string, size int64) {
	t.Helper()
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d,mode=0755", size), "agora-faults", dir).CombinedOutput()
	if err != nil {
		t.Skipf("a disk of its own for the data folder needs mount -t tmpfs, which failed here (%v: %s)", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			// A process of the stack still holds a file: detach it now,
			// the kernel frees it with the last one.
			t.Logf("umount %s: %v: %s; detaching it", dir, err, bytes.TrimSpace(out))
			_ = exec.Command("umount", "-l", dir).Run()
		}
	})
}

// freeBytes is the space left on dir's filesystem.
func freeBytes(t *testing.T, dir string) int64 {
	t.Helper()
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	return int64(st.Bavail) * st.Bsize
}

// fill takes every byte left on dir's filesystem with a ballast file, and
// answers its path. It may be called again, to take what the stack freed
// meanwhile (a failed write's file removed, say).
func fill(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "ballast")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	// Closed before the ballast is removed: an open file keeps its space.
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if free := freeBytes(t, dir); free > 0 {
		if err := syscall.Fallocate(int(f.Fd()), 0, fi.Size(), free); err != nil && !errors.Is(err, syscall.ENOSPC) {
			t.Fatal(err)
		}
	}
	// What others took meanwhile aside, the last pages by hand.
	page := make([]byte, 4096)
	for {
		if _, err := f.Write(page); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	return path
}

// checkpoint runs a checkpoint on a connection of its own: the pool's may
// be one the last crash closed.
func checkpoint(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background()) //nolint:errcheck
	_, err = conn.Exec(ctx, "CHECKPOINT")
	return err
}

// uploadState reads the state of upload id, on a connection of its own
// (the pool's may be one a crash closed).
func uploadState(t *testing.T, url string, id uuid.UUID) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background()) //nolint:errcheck
	var state string
	if err := conn.QueryRow(ctx, "SELECT state FROM uploads WHERE id = $1", id).Scan(&state); err != nil {
		t.Fatal(err)
	}
	return state
}

// waitPostgres waits up to a minute until Postgres answers a new
// connection.
func waitPostgres(t *testing.T, url string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		conn, err := pgx.Connect(ctx, url)
		if err == nil {
			err = conn.Ping(ctx)
			conn.Close(ctx) //nolint:errcheck
		}
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("postgres does not answer a minute after space returned: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// apiProcess is agora api beside the stack, signed in as the seed member.
type apiProcess struct {
	*proc
	url   string
	data  string // its data folder: the blob store is under blobs/
	http  *http.Client
	token string
}

// startAPI starts agora api with a data folder of its own under the
// stack's, named name (the projector holds the search index of the
// stack's), and signs in there as the seed member.
func (s *faultStack) startAPI(name string) *apiProcess {
	t := s.t
	addr := freeAddr(t)
	a := &apiProcess{url: "http://" + addr, data: filepath.Join(s.dir, name), http: &http.Client{Timeout: 15 * time.Second}}
	a.proc = startAgora(t, append(slices.Clone(s.env), "AGORA_ADDR="+addr, "AGORA_PUBLIC_URL="+a.url, "AGORA_DATA_DIR="+a.data), "api")
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if status, _, _ := a.call("GET", "/readyz", nil, ""); status == http.StatusOK {
			break
		}
		if a.exited() || time.Now().After(deadline) {
			t.Fatalf("agora api not ready within a minute:\n%s", a.stderr.String())
		}
	}
	var session struct {
		AccessToken string `json:"accessToken"`
	}
	status, _, body := a.call("POST", "/api/sessions", map[string]string{"email": seed.MemberEmail, "password": demoPassword}, "")
	if status != http.StatusOK || json.Unmarshal(body, &session) != nil {
		t.Fatalf("sign in: %d %s", status, body)
	}
	a.token = session.AccessToken
	return a
}

// call sends a request to path (or to a whole URL of the API) with body,
// JSON unless it is bytes of contentType, and answers the status, the
// error code of an error and the body; a request that gets no answer is
// status 0.
func (a *apiProcess) call(method, path string, body any, contentType string) (status int, code string, raw []byte) {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			panic(err)
		}
		rd, contentType = bytes.NewReader(j), "application/json"
	}
	if !strings.HasPrefix(path, "http") {
		path = a.url + path
	}
	req, err := http.NewRequest(method, path, rd)
	if err != nil {
		panic(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if a.token != "" {
		req.Header.Set("Authorization", "Bearer "+a.token)
	}
	res, err := a.http.Do(req)
	if err != nil {
		return 0, err.Error(), nil
	}
	defer res.Body.Close()
	raw, _ = io.ReadAll(res.Body)
	if res.StatusCode >= 300 {
		var e struct {
			Code string `json:"code"`
		}
		_ = json.Unmarshal(raw, &e)
		code = e.Code
	}
	return res.StatusCode, code, raw
}

// noisePNG is a PNG of random pixels, which does not compress: about
// 4·w·h bytes.
func noisePNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(rand.IntN(256))
	}
	img.Set(0, 0, color.RGBA{A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// apiPost is a post asked of the API and its answer.
type apiPost struct {
	raw    string
	status int
	code   string
}

// post asks the API for a post of raw in the stack's forum, with an image
// when imageURL is set.
func (s *faultStack) post(raw, imageURL string) apiPost {
	body := map[string]any{"channelId": s.channel.String(), "raw": raw}
	if imageURL != "" {
		body["image"] = map[string]string{"url": imageURL}
	}
	status, code, _ := s.api.call("POST", "/api/series/"+s.series.String()+"/threads", body, "")
	return apiPost{raw: raw, status: status, code: code}
}

// TestFaultDiskFull fills the disk of the stack's data folder (Postgres's,
// ClickHouse's, the broker's, the search index's and the API's blob store)
// with a ballast file under continuous writes, then deletes it, twice.
// While the disk is full, reads are served and the API refuses writes with
// 507 storageFull: an upload's bytes at once, leaving no file behind and
// the upload pending, and posts once Postgres must extend a file (until
// then they fit in pages it has). A checkpoint, which Postgres runs by
// itself at least every 5 minutes, cannot write: Postgres PANICs, and its
// recovery either gets through or fails, the postmaster exiting, and then
// agora's supervisor of it (pgserver) tries again until space returns.
// Nothing restarts anything else: the API takes the same upload and new
// posts, the relay and the projector carry on, and afterwards nothing is
// half-applied (a refused post is not in Postgres, an accepted one is; the
// blob store has a file for each complete upload and for nothing else) and
// every projection equals a rebuild.
func TestFaultDiskFull(t *testing.T) {
	s := newFaultStack(t, faultOptions{disk: diskSize, api: true})
	t.Logf("the stack takes %d MB of its %d MB disk", (diskSize-freeBytes(t, s.dir))>>20, diskSize>>20)
	blobs := filepath.Join(s.api.data, "blobs")
	var posts []apiPost
	var uploads []uuid.UUID
	s.underWrites(faultCycles, func(cycle int) {
		ctx := t.Context()
		img := noisePNG(t, 256, 256)
		var ticket struct {
			ID  uuid.UUID `json:"id"`
			URL string    `json:"url"`
		}
		status, _, body := s.api.call("POST", "/api/sas", map[string]any{"kind": "image", "name": "full.png", "mediaType": "image/png", "size": len(img)}, "")
		if status != http.StatusCreated || json.Unmarshal(body, &ticket) != nil {
			t.Fatalf("cycle %d: POST /api/sas: %d %s", cycle, status, body)
		}
		uploads = append(uploads, ticket.ID)

		ballast := fill(t, s.dir)
		filled := time.Now()
		// The upload's bytes cannot be staged.
		if status, code, body := s.api.call("PUT", ticket.URL, img, "image/png"); status != http.StatusInsufficientStorage || code != "storageFull" {
			t.Fatalf("cycle %d: an upload on the full disk: %d %s %s, want 507 storageFull", cycle, status, code, body)
		}
		if tmp, _ := os.ReadDir(filepath.Join(blobs, "tmp")); len(tmp) > 0 {
			t.Fatalf("cycle %d: a refused upload left %d files in the blob store's tmp/", cycle, len(tmp))
		}
		if state := uploadState(t, s.pg.URL("agora"), ticket.ID); state != "pending" {
			t.Fatalf("cycle %d: a refused upload is %s, want pending", cycle, state)
		}
		// Reads need no space.
		if status, _, body := s.api.call("GET", "/api/channels/"+s.channel.String()+"/threads", nil, ""); status != http.StatusOK {
			t.Fatalf("cycle %d: the forum's posts on the full disk: %d %s", cycle, status, body)
		}
		// Posts fit in Postgres's pages until one must be added.
		accepted := 0
		for k := 1; ; k++ {
			fill(t, s.dir)
			p := s.post(fmt.Sprintf("Disk-full post %d.%d (%s)", cycle, k, uuid.NewString()), "")
			posts = append(posts, p)
			if p.status == http.StatusCreated {
				accepted++
				if time.Since(filled) > 30*time.Second {
					t.Fatalf("cycle %d: posts still accepted 30 s after the disk filled", cycle)
				}
				continue
			}
			if p.status != http.StatusInsufficientStorage || p.code != "storageFull" {
				t.Fatalf("cycle %d: a post on the full disk: %d %s, want 507 storageFull", cycle, p.status, p.code)
			}
			break
		}
		restarts := s.pg.Restarts()
		cp := "went through"
		if err := checkpoint(ctx, s.pg.URL("agora")); err != nil {
			cp = fmt.Sprintf("PANICked postgres (%v)", err)
		}
		t.Logf("cycle %d: disk full: an upload refused, posts refused after %d more fitted in %v; a checkpoint %s",
			cycle, accepted, time.Since(filled).Round(time.Millisecond), cp)
		// The writer, the API, the relay and the projector meet the full
		// disk (and no Postgres) for a while.
		time.Sleep(2 * time.Second)

		if err := os.Remove(ballast); err != nil {
			t.Fatal(err)
		}
		freed := time.Now()
		waitPostgres(t, s.pg.URL("agora"))
		answering := time.Since(freed)
		// The same URL takes the upload now, and a post shows it.
		var done struct {
			URL string `json:"url"`
		}
		for {
			status, _, body := s.api.call("PUT", ticket.URL, img, "image/png")
			if status == http.StatusOK && json.Unmarshal(body, &done) == nil {
				break
			}
			if time.Since(freed) > 30*time.Second {
				t.Fatalf("cycle %d: the upload still refused 30 s after space returned: %d %s", cycle, status, body)
			}
			time.Sleep(200 * time.Millisecond)
		}
		for k := 1; ; k++ {
			p := s.post(fmt.Sprintf("Post %d.%d after the disk was full (%s)", cycle, k, uuid.NewString()), done.URL)
			posts = append(posts, p)
			if p.status == http.StatusCreated {
				break
			}
			if time.Since(freed) > 30*time.Second {
				t.Fatalf("cycle %d: posts still refused 30 s after space returned: %d %s", cycle, p.status, p.code)
			}
			time.Sleep(200 * time.Millisecond)
		}
		// Told apart only now: pgserver counts a restart once its own
		// connection got an answer, which the one above may precede.
		how := "postgres had recovered by itself"
		if s.pg.Restarts() != restarts {
			how = "postgres had exited and was started again by pgserver"
		}
		t.Logf("cycle %d: space back: %s, answering after %v; the upload and a post with it taken after %v",
			cycle, how, answering.Round(time.Millisecond), time.Since(freed).Round(time.Millisecond))
	})
	if s.api.exited() {
		t.Fatalf("agora api exited:\n%s", s.api.stderr.String())
	}

	// Nothing half-applied: each post is in Postgres if and only if the
	// API said it was made; each upload is complete if and only if the
	// blob store has its file; nothing is left staged.
	ctx := t.Context()
	refused := 0
	for _, p := range posts {
		var n int
		if err := s.pool.QueryRow(ctx, "SELECT count(*) FROM threads WHERE raw = $1", p.raw).Scan(&n); err != nil {
			t.Fatal(err)
		}
		switch {
		case p.status == http.StatusCreated && n != 1:
			t.Errorf("%q: made (201), %d in Postgres", p.raw, n)
		case p.status == http.StatusInsufficientStorage && n != 0:
			t.Errorf("%q: refused (507), %d in Postgres", p.raw, n)
		case p.status == http.StatusInsufficientStorage:
			refused++
		}
	}
	for _, id := range uploads {
		state := uploadState(t, s.pg.URL("agora"), id)
		_, err := os.Stat(filepath.Join(blobs, "objects", id.String()))
		if (state == "complete") != (err == nil) {
			t.Errorf("upload %s: %s, its file: %v", id, state, err)
		}
	}
	if tmp, _ := os.ReadDir(filepath.Join(blobs, "tmp")); len(tmp) > 0 {
		t.Errorf("%d files left in the blob store's tmp/", len(tmp))
	}
	t.Logf("%d posts asked of the API (%d refused with 507), %d uploads: none half-applied; clickhouse restarted %d times",
		len(posts), refused, len(uploads), s.ch.Restarts())
}
