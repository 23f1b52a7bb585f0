package insights

import (
	"context"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
)

// admin resolves the forum and refuses a caller who does not administer
// it: 404 when they may not read it either (as for an unknown forum), 403
// when they may.
func (q *Queries) admin(ctx context.Context, c auth.Caller, seriesID uuid.UUID) (forum, error) {
	if _, err := access.AdminForum(ctx, q.db, c.UserID, c.Role, seriesID); err != nil {
		return forum{}, err
	}
	f := forum{id: seriesID}
	var main, admin *uuid.UUID
	ch := table.Channels
	channel := func(kind string) Expression {
		return SELECT(ch.ID).FROM(ch).WHERE(ch.SeriesID.EQ(UUID(seriesID)).AND(ch.Kind.EQ(String(kind))))
	}
	err := db.QueryRow(ctx, q.db, SELECT(channel("main"), channel("admin"))).Scan(&main, &admin)
	if err != nil {
		return forum{}, fmt.Errorf("insights: channels: %w", err)
	}
	if main != nil {
		f.main = *main
	}
	if admin != nil {
		f.admin, f.hasAdmin = *admin, true
	}
	return f, nil
}
