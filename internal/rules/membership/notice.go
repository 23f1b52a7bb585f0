package membership

import "fmt"

// The notice a person given access to a forum receives (spec 001 §3,
// assignment preview): what Manage Access shows before the change, and
// what the notification and its mail say after it, in one wording.

// AccessSubject is the notice's subject: giver gave you access to forum.
func AccessSubject(giver, forum string) string {
	return fmt.Sprintf("%s gave you access to %s", giver, forum)
}

// AccessDescription is the notice's text.
func AccessDescription(forum, community string) string {
	return fmt.Sprintf("You can now join the conversation in the forum %s of %s.", forum, community)
}
