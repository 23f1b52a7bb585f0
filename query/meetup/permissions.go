package meetup

import (
	"context"

	"github.com/google/uuid"

	"agora/internal/plumbing/auth"
	"agora/internal/rules/access"
)

// maxRecordedDuration: AI notes are for Meet Ups shorter than this, in
// minutes (spec 002 §9).
const maxRecordedDuration = 120

// Permissions are what the caller may do in a Meet Up (spec 002 §6).
type Permissions struct {
	Role               *string `json:"role"`
	CanJoin            bool    `json:"canJoin"`
	CanEdit            bool    `json:"canEdit"`
	CanDelete          bool    `json:"canDelete"`
	CanAddMembers      bool    `json:"canAddMembers"`
	CanManageBreakouts bool    `json:"canManageBreakouts"`
	CanEndRoom         bool    `json:"canEndRoom"`
	CanRecord          bool    `json:"canRecord"`
	CanEditMinutes     bool    `json:"canEditMinutes"`
	CanSeeMinutes      bool    `json:"canSeeMinutes"`
}

// Permissions is GET /meetings/{roomId}/permissions.
func (q *Queries) Permissions(ctx context.Context, v auth.Caller, roomID uuid.UUID) (Permissions, error) {
	m, _, err := q.read(ctx, v, roomID)
	if err != nil {
		return Permissions{}, err
	}
	role := m.RoleOf(v.UserID)
	runs := access.MeetingRuns(role)
	live := !m.ended
	p := Permissions{
		CanJoin:            role != "" && live,
		CanEdit:            v.UserID == m.CreatorID && live,
		CanDelete:          v.UserID == m.CreatorID,
		CanAddMembers:      runs && !m.Open && live,
		CanManageBreakouts: runs && len(m.Breakouts.Rooms) > 0 && live,
		CanEndRoom:         runs && live,
		CanRecord:          runs && m.Duration < maxRecordedDuration && live,
		CanEditMinutes:     runs,
		CanSeeMinutes:      m.SeesMinutes(v.UserID),
	}
	if role != "" {
		p.Role = &role
	}
	return p, nil
}
