package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"syscall"
	"testing"

	"github.com/gofiber/fiber/v3"
	"github.com/jackc/pgx/v5/pgconn"

	"agora/internal/plumbing/apperr"
)

// TestDiskFullIsStorageFull: whichever layer ran out of disk, and whatever
// the use case made of its error, the answer is 507 storageFull; other
// failures keep their own answer.
func TestDiskFullIsStorageFull(t *testing.T) {
	rejected := apperr.New(apperr.BadInput, "uploadRejected", "the upload was rejected")
	enospc := &os.PathError{Op: "write", Path: "/data/blobs/tmp/upload-1", Err: syscall.ENOSPC}
	for _, tc := range []struct {
		name   string
		err    error
		status int
		code   string
	}{
		{"postgres disk_full", fmt.Errorf("feed: create thread: %w", &pgconn.PgError{Code: "53100", Message: `could not extend file "base/5/16385": No space left on device`}), 507, "storageFull"},
		{"blob store ENOSPC", fmt.Errorf("blob: %w", enospc), 507, "storageFull"},
		{"a rejection caused by ENOSPC", rejected.With("reason", "the body could not be read to its end").Wrap(enospc), 507, "storageFull"},
		{"another postgres error", &pgconn.PgError{Code: "53200", Message: "out of memory"}, 500, "internalError"},
		{"another file error", &os.PathError{Op: "write", Path: "/x", Err: syscall.EIO}, 500, "internalError"},
		{"a rejection", rejected.Wrap(errors.New("unexpected EOF")), 400, "uploadRejected"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &server{Application: &Application{Log: slog.New(slog.DiscardHandler)}}
			app := fiber.New(fiber.Config{ErrorHandler: s.handleError})
			app.Post("/", func(fiber.Ctx) error { return tc.err })
			res, err := app.Test(httptest.NewRequest("POST", "/", nil))
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			var body ErrorBody
			if err := json.Unmarshal(b, &body); err != nil {
				t.Fatalf("%s: %v", b, err)
			}
			if res.StatusCode != tc.status || body.Code != tc.code {
				t.Fatalf("%d %s, want %d %s", res.StatusCode, b, tc.status, tc.code)
			}
		})
	}
}
