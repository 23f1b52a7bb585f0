// Package personalization names the keys of a user's personalization
// (spec 000 §3 "Personalization"; contract of issue 17) and the value each
// holds: the flat object of dotted keys that PATCH
// /users/{id}/personalization merges (command/account) and that the
// notifications list and their delivery read. It is the one owner of the
// stored object: Merge is its one write, Stored its raw read and Read its
// typed read. A key absent means its default, which is the server's
// (Defaults).
package personalization

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
)

// The keys.
const (
	PostsLastSeenAt       = "notifications.posts.lastSeenAt"
	MeetupsLastSeenAt     = "notifications.meetups.lastSeenAt"
	PostsDismissed        = "notifications.posts.dismissed"
	PostsRead             = "notifications.posts.read"
	TimeZone              = "notifications.timezone"
	EmailMentions         = "notifications.email.mentions"
	EmailPrivateChats     = "notifications.email.privateChats"
	PushMentions          = "notifications.push.mentions"
	PushPrivateChats      = "notifications.push.privateChats"
	PushComments          = "notifications.push.comments"
	DigestFrequency       = "notifications.digest.frequency"
	InsightsFrequency     = "notifications.insights.frequency"
	DigestHour            = "notifications.digest.hour"
	DigestWeekday         = "notifications.digest.weekday"
	DontConfirmNavigation = "feed.webLink.dontConfirmNavigation"
	NewMessagesDismissed  = "reminders.newMessages.dismissed"
	MeetingDismissed      = "reminders.meeting.dismissed"
)

// MaxList bounds the entries of a list value.
const MaxList = 500

// MaxListString bounds an entry of a list of strings, in characters.
const MaxListString = 100

// value is what a key holds.
type value int

const (
	instant value = iota + 1 // an RFC 3339 time
	uuids                    // an array of uuids
	strs                     // an array of strings
	zone                     // an IANA time zone name
	boolean
	frequency // off, daily or weekly
	hour      // 0–23
	weekday   // 0–6, 0 = Sunday
)

var keys = map[string]value{
	PostsLastSeenAt: instant, MeetupsLastSeenAt: instant,
	PostsDismissed: uuids, PostsRead: uuids,
	TimeZone:      zone,
	EmailMentions: boolean, EmailPrivateChats: boolean,
	PushMentions: boolean, PushPrivateChats: boolean, PushComments: boolean,
	DigestFrequency: frequency, InsightsFrequency: frequency,
	DigestHour: hour, DigestWeekday: weekday,
	DontConfirmNavigation: boolean,
	NewMessagesDismissed:  uuids,
	MeetingDismissed:      strs,
}

// Defaults are the values of the keys that have one when absent.
var Defaults = map[string]any{
	EmailMentions: true, EmailPrivateChats: true,
	PushMentions: true, PushPrivateChats: true, PushComments: true,
	DigestFrequency: "daily", InsightsFrequency: "weekly",
	DigestHour: 8, DigestWeekday: 1, TimeZone: "UTC",
}

// conversationKey is conversations.<channelId>.lastActivityOn.
var conversationKey = regexp.MustCompile(`^conversations\.([0-9a-fA-F-]{36})\.lastActivityOn$`)

// Known reports whether key is a key of the personalization.
func Known(key string) bool {
	_, ok := of(key)
	return ok
}

func of(key string) (value, bool) {
	if v, ok := keys[key]; ok {
		return v, true
	}
	if m := conversationKey.FindStringSubmatch(key); m != nil {
		if _, err := uuid.Parse(m[1]); err == nil {
			return instant, true
		}
	}
	return 0, false
}

// Check returns why raw cannot be the value of key, or "" when it can.
// null, which removes a key, is for Personalize to handle.
func Check(key string, raw json.RawMessage) string {
	v, ok := of(key)
	if !ok {
		return "is not a personalization key"
	}
	switch v {
	case instant:
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "must be an RFC 3339 time"
		}
		if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
			return "must be an RFC 3339 time"
		}
	case uuids, strs:
		var list []string
		if json.Unmarshal(raw, &list) != nil || list == nil {
			return "must be an array of strings"
		}
		if len(list) > MaxList {
			return fmt.Sprintf("must hold at most %d entries", MaxList)
		}
		for _, e := range list {
			if v == uuids {
				if _, err := uuid.Parse(e); err != nil {
					return "must be an array of UUIDs"
				}
			} else if utf8.RuneCountInString(e) > MaxListString {
				return fmt.Sprintf("entries must be at most %d characters", MaxListString)
			}
		}
	case zone:
		var s string
		if json.Unmarshal(raw, &s) != nil || s == "" || strings.EqualFold(s, "local") {
			return "must be an IANA time zone name"
		}
		if _, err := time.LoadLocation(s); err != nil {
			return "must be an IANA time zone name"
		}
	case boolean:
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			return "must be true or false"
		}
	case frequency:
		var s string
		if json.Unmarshal(raw, &s) != nil || (s != "off" && s != "daily" && s != "weekly") {
			return "must be off, daily or weekly"
		}
	case hour, weekday:
		top := 23
		if v == weekday {
			top = 6
		}
		if n, ok := integer(raw); !ok || n < 0 || n > int64(top) {
			return fmt.Sprintf("must be an integer from 0 to %d", top)
		}
	}
	return ""
}

// integer reads a JSON number without a fraction.
func integer(raw json.RawMessage) (int64, bool) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var n json.Number
	if d.Decode(&n) != nil {
		return 0, false
	}
	i, err := n.Int64()
	return i, err == nil
}
