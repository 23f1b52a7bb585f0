package meetup

import (
	"context"
	"time"
)

// closeRooms closes the Meet Up's LiveKit rooms once it has ended, which
// sends their participants away; a room that is not open is no error.
// Failing to reach LiveKit leaves the rooms to close themselves when
// empty: the Meet Up has ended all the same, and no new token is given.
func (s *Service) closeRooms(ctx context.Context, rooms []string) {
	if s.rooms == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	for _, r := range rooms {
		if err := s.rooms.DeleteRoom(ctx, r); err != nil {
			s.log.Warn("meeting: close LiveKit room", "room", r, "err", err)
		}
	}
}
