package auth

import "github.com/google/uuid"

// Caller is who makes a call: the signed-in user and their application
// role, which is all the commands and queries need to check what the
// caller may do (the session itself stays with the API).
type Caller struct {
	UserID uuid.UUID
	Role   Role
}
