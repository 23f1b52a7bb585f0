// Package picture keeps the pictures people and places show (a member's
// avatar, a community's, a forum's or an organization's image) at addresses that last
// as long as they are shown. An image upload answers a read URL signed for
// hours, and an upload that no post shows is swept within a day; a form
// that stored that URL showed a broken picture by the evening. Keep turns
// the signed URL of the actor's own upload into /api/pictures/{uploadId}
// (GET signs a fresh read URL each time) and marks the upload a picture,
// which the upload quota leaves alone and the sweep removes only once no
// avatar or image shows it any more (replaced, or its place deleted).
package picture

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/adapters/blob"
	"agora/internal/adapters/linkpreview"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
)

// PathPrefix is the path of a picture's address, before its upload id.
const PathPrefix = "/api/pictures/"

// ID is the upload id of a picture address (a path, or a URL whose path
// is one), and whether it is one.
func ID(address string) (uuid.UUID, bool) {
	u, err := url.Parse(address)
	if err != nil || !strings.HasPrefix(u.Path, PathPrefix) {
		return uuid.Nil, false
	}
	id, err := uuid.Parse(strings.TrimPrefix(u.Path, PathPrefix))
	return id, err == nil
}

// Check is the form check of a picture field: its own address, kept as
// it is, or an http(s) URL (linkpreview.FormLink). nil when not sent or
// empty.
func Check(bad apperr.Fields, field string, s *string) *string {
	if s != nil {
		if _, ok := ID(strings.TrimSpace(*s)); ok {
			v := strings.TrimSpace(*s)
			return &v
		}
	}
	return linkpreview.FormLink(bad, field, s)
}

// CheckUploaded is the form check of a picture that must be an upload of
// its own, never an image elsewhere (an avatar: shown to every member who
// sees its owner, another site's image would tell that site who looks,
// and when): the picture's own address, kept as it is, or the read URL of
// an upload, which Keep then checks is the actor's image. A URL elsewhere
// is refused.
func CheckUploaded(bad apperr.Fields, field string, s *string) {
	if s == nil {
		return
	}
	*s = strings.TrimSpace(*s)
	if _, ok := ID(*s); ok {
		return
	}
	if _, ok := blob.IDFromURL(*s); !ok || len(*s) > 2048 {
		bad.Add(field, "must be an image you uploaded")
	}
}

// Keep returns what to store in a picture field (named field, for the
// error) changed by actor from old to next, inside the caller's
// transaction: next unchanged is kept; the read URL of one of the actor's
// complete image uploads becomes that upload's picture address, and the
// upload a picture; an address elsewhere (an https image of another site)
// is kept as it is. Another place's picture address, or an upload that is
// not the actor's image, is refused.
func Keep(ctx context.Context, q db.Querier, actor uuid.UUID, field, old, next string) (string, error) {
	if next == old || next == "" {
		return next, nil
	}
	if _, ok := ID(next); ok {
		return "", apperr.Invalid(map[string]string{field: "must be an image you uploaded"})
	}
	id, ok := blob.IDFromURL(next)
	if !ok {
		return next, nil
	}
	u := table.Uploads
	ids, err := db.Values[uuid.UUID](ctx, q, u.UPDATE(u.Picture).SET(Bool(true)).
		WHERE(u.ID.EQ(UUID(id)).AND(u.OwnerID.EQ(UUID(actor))).AND(u.Kind.EQ(String("image"))).
			AND(u.State.EQ(String("complete"))).AND(u.ThreadID.IS_NULL()).AND(u.PrivateMessageID.IS_NULL()).AND(u.AttachedOn.IS_NULL())).
		RETURNING(u.ID))
	if err != nil {
		return "", fmt.Errorf("picture: keep: %w", err)
	}
	if len(ids) == 0 {
		return "", apperr.Invalid(map[string]string{field: "must be an image you uploaded"})
	}
	return PathPrefix + id.String(), nil
}

// KeepField is Keep for a field that may be empty (nil, before or after).
func KeepField(ctx context.Context, q db.Querier, actor uuid.UUID, field string, old, next *string) (*string, error) {
	if next == nil {
		return nil, nil
	}
	prev := ""
	if old != nil {
		prev = *old
	}
	v, err := Keep(ctx, q, actor, field, prev, *next)
	return &v, err
}

// Shown is the condition that the picture upload id is still shown by an
// avatar, a community's, a forum's or an organization's image: the sweep
// keeps those.
func Shown(id ColumnString) BoolExpression {
	address := String(PathPrefix).CONCAT(CAST(id).AS_TEXT())
	us, c, f, o := table.Users, table.Communities, table.Series, table.Organizations
	return EXISTS(SELECT(us.ID).FROM(us).WHERE(us.Avatar.EQ(address))).
		OR(EXISTS(SELECT(c.ID).FROM(c).WHERE(c.Image.EQ(address)))).
		OR(EXISTS(SELECT(f.ID).FROM(f).WHERE(f.Image.EQ(address)))).
		OR(EXISTS(SELECT(o.ID).FROM(o).WHERE(o.Image.EQ(address))))
}
