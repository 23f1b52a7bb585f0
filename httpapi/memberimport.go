package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"

	"agora/command/memberimport"
	"agora/internal/plumbing/auth"
)

// maxImportTime bounds one import's transaction, which outlives the
// handler (it runs while the stream is written).
const maxImportTime = 5 * time.Minute

// importBodyLimit is the body an import's POST may have: the largest file
// and room for the multipart envelope around it.
const importBodyLimit = memberimport.MaxBytes + 64<<10

// importPathSuffix ends the paths of the two import routes.
const importPathSuffix = "/profiles/bulk"

// isImportPost reports whether a request (its method and path, query
// apart) is an import's POST, whose body may be larger than BodyLimit.
// Fiber matches routes case-insensitively, so this does too.
func isImportPost(method, uri []byte) bool {
	path, _, _ := strings.Cut(string(uri), "?")
	path = strings.TrimSuffix(path, "/")
	return string(method) == fiber.MethodPost && len(path) >= len(importPathSuffix) &&
		strings.EqualFold(path[len(path)-len(importPathSuffix):], importPathSuffix)
}

// memberImportRoutes serve the member import (spec 000 §2.7 "CSV dialog",
// §7): the upload into a community or an organization, and the template.
func (s *server) memberImportRoutes(api fiber.Router) {
	authed := only(auth.GroupAuthenticated)
	api.Post("/communities/:communityId/profiles/bulk", authed, s.importCommunityMembers)
	api.Post("/organizations/:organizationId/profiles/bulk", authed, s.importOrganizationMembers)
	api.Get("/profiles/bulk/template.csv", authed, importTemplate)
}

func (s *server) importCommunityMembers(c fiber.Ctx) error {
	id, err := pathUUID(c, "communityId")
	if err != nil {
		return err
	}
	return s.importMembers(c, memberimport.Import{CommunityID: id})
}

func (s *server) importOrganizationMembers(c fiber.Ctx) error {
	id, err := pathUUID(c, "organizationId")
	if err != nil {
		return err
	}
	return s.importMembers(c, memberimport.Import{OrganizationID: id})
}

// importEvent is a line of an import's stream.
type importEvent struct {
	Type      string `json:"type"`
	Processed *int   `json:"processed,omitempty"`
	Total     *int   `json:"total,omitempty"`
	*memberimport.Report
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
}

// importMembers checks the caller and the file before anything is written,
// so that a refusal is the JSON error body; then the import streams as
// application/x-ndjson: a progress line per batch written, and the report
// (or an error line, with nothing written) at the end.
func (s *server) importMembers(c fiber.Ctx, in memberimport.Import) error {
	in.Actor = caller(c)
	// A request that is not multipart, or has no file field, has no file.
	if fh, err := c.FormFile("file"); err == nil {
		f, err := fh.Open()
		if err != nil {
			return err
		}
		data, err := io.ReadAll(io.LimitReader(f, memberimport.MaxBytes+1))
		f.Close()
		if err != nil {
			return err
		}
		in.File = &memberimport.File{Name: fh.Filename, Data: data}
	}
	// The import outlives the handler (fasthttp writes the stream after it
	// returns): its context is its own, and a client that leaves does not
	// cancel it, so that what it started is committed whole.
	ctx, cancel := context.WithTimeout(context.Background(), maxImportTime)
	im, err := s.Commands.MemberImports.Prepare(ctx, in)
	if err != nil {
		cancel()
		return err
	}
	c.Set(fiber.HeaderContentType, "application/x-ndjson")
	c.Set(fiber.HeaderCacheControl, "no-store")
	// nginx (deploy/) would otherwise buffer the stream.
	c.Set("X-Accel-Buffering", "no")
	reqID := requestID(c)
	return c.SendStreamWriter(func(w *bufio.Writer) {
		defer cancel()
		enc := json.NewEncoder(w)
		line := func(e importEvent) {
			_ = enc.Encode(e)
			_ = w.Flush()
		}
		rep, err := im.Run(ctx, func(processed, total int) {
			line(importEvent{Type: "progress", Processed: &processed, Total: &total})
		})
		if err != nil {
			s.Log.Error("member import failed", "requestId", reqID, "err", err)
			line(importEvent{Type: "error", Code: "membersImporting", Message: "the import failed; nothing was imported"})
			return
		}
		line(importEvent{Type: "report", Report: &rep})
	})
}

// importTemplate is the file the CSV dialog offers to download.
func importTemplate(c fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="members-template.csv"`)
	return c.Send(memberimport.Template())
}
