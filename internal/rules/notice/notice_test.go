package notice_test

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"agora/internal/plumbing/db"
	"agora/internal/rules/notice"
	"agora/internal/rules/personalization"
)

func all(notice.Kind) bool { return true }

// TestKinds checks what the users of the table rely on of each kind.
func TestKinds(t *testing.T) {
	seen := map[string]bool{}
	events := []string{"", notice.UserMentioned, notice.ReplyNotified, notice.UserNotified, notice.CommunityJoined}
	for _, k := range notice.Kinds {
		if k.Name == "" || seen[k.Name] {
			t.Errorf("kind %q: empty or twice in the table", k.Name)
		}
		seen[k.Name] = true
		if got := notice.Of(k.Name); got.Name != k.Name {
			t.Errorf("Of(%q) is %q", k.Name, got.Name)
		}
		if k.About < notice.Post || k.About > notice.Conversation {
			t.Errorf("%s: about nothing (%d)", k.Name, k.About)
		}
		if k.Headline == nil {
			t.Errorf("%s: no headline", k.Name)
		}
		// A switch is a boolean key of the personalization, with a default.
		for _, key := range []string{k.Email, k.Push} {
			if key == "" {
				continue
			}
			if personalization.Check(key, json.RawMessage("true")) != "" {
				t.Errorf("%s: %q is not a boolean setting", k.Name, key)
			}
			if _, ok := personalization.Defaults[key].(bool); !ok {
				t.Errorf("%s: %q has no default", k.Name, key)
			}
		}
		// The bell lists by the forum's channel or by the community; a
		// conversation is the chat's.
		if k.Listed && k.About == notice.Conversation {
			t.Errorf("%s: a conversation listed in the bell", k.Name)
		}
		// The digest links each item to its post.
		if k.Digested && (k.About != notice.Post || k.Reason == "") {
			t.Errorf("%s: digested, but not a post's or without a reason", k.Name)
		}
		// A private message is pushed once a burst per conversation.
		if k.About == notice.Conversation && k.PushGroup == "" {
			t.Errorf("%s: a conversation in no push group", k.Name)
		}
		if !slices.Contains(events, k.Event) {
			t.Errorf("%s: unknown live event %q", k.Name, k.Event)
		}
		// channel.thread.reply.created's payload names the post.
		if k.Event == notice.ReplyNotified && k.About != notice.Post {
			t.Errorf("%s: %s without a post", k.Name, k.Event)
		}
		if !slices.Contains([]string{"", "mention", "comment"}, k.Reason) {
			t.Errorf("%s: reason %q is not one the post's page reads", k.Name, k.Reason)
		}
	}
	for _, name := range []string{notice.Mention, notice.Reply, notice.Comment, notice.MeetupOpen, notice.MeetupInvite,
		notice.MeetupSeat, notice.ForumAccess, notice.CommunityJoin, notice.Message} {
		if !seen[name] {
			t.Errorf("%s: named, but not in the table", name)
		}
	}
	if len(seen) != 9 {
		t.Errorf("%d kinds in the table, 9 named", len(seen))
	}
}

// TestBurst: the kinds mailed once a burst are one mail under one setting
// (its unsubscribe link's), and pushed once a burst as one group.
func TestBurst(t *testing.T) {
	burst := notice.Names(func(k notice.Kind) bool { return k.Burst })
	if len(burst) == 0 {
		t.Fatal("no burst kinds")
	}
	first := notice.Of(burst[0])
	group := notice.Names(func(k notice.Kind) bool { return k.PushGroup == first.PushGroup })
	if first.PushGroup == "" || !slices.Equal(group, burst) {
		t.Errorf("burst kinds %v, their push group %q is %v", burst, first.PushGroup, group)
	}
	for _, name := range burst {
		if k := notice.Of(name); k.Email != first.Email || k.Email == "" {
			t.Errorf("%s: mailed under %q, the burst under %q", name, k.Email, first.Email)
		}
	}
}

// TestWhatUsersRead pins the lists the projections and the bell read.
func TestWhatUsersRead(t *testing.T) {
	for _, c := range []struct {
		what string
		got  []string
		want []string
	}{
		{"listed", notice.Names(func(k notice.Kind) bool { return k.Listed }),
			[]string{"mention", "comment", "meetup-open", "meetup-invite", "meetup-seat", "forum-access", "community-join"}},
		{"digested", notice.Names(func(k notice.Kind) bool { return k.Digested }), []string{"mention", "reply", "comment"}},
		{"burst", notice.Names(func(k notice.Kind) bool { return k.Burst }), []string{"mention", "meetup-open"}},
		{"comments' push group", notice.Names(func(k notice.Kind) bool { return k.PushGroup == notice.Of("comment").PushGroup }),
			[]string{"reply", "comment"}},
		{"mailed at once", notice.Names(func(k notice.Kind) bool { return k.Email != "" }),
			[]string{"mention", "meetup-open", "forum-access", "community-join", "message"}},
		{"pushed", notice.Names(func(k notice.Kind) bool { return k.Push != "" }), notice.Names(all)},
		{"told live", notice.Names(func(k notice.Kind) bool { return k.Event != "" }),
			[]string{"mention", "reply", "comment", "forum-access", "community-join"}},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
		}
	}
	if k := notice.Of("message"); k.Email != personalization.EmailPrivateChats || k.Push != personalization.PushPrivateChats {
		t.Errorf("message: switched by %q and %q", k.Email, k.Push)
	}
	if k := notice.Of("comment"); k.Push != personalization.PushComments {
		t.Errorf("comment: pushed by %q", k.Push)
	}
	if k := notice.Of("nudge"); k.Name != "" || k.Listed || k.Email != "" || k.Push != "" || k.Event != "" {
		t.Error("an unknown kind is in the table")
	}
}

func TestHeadline(t *testing.T) {
	w := notice.Who{Author: "Ada Lovelace", Forum: "Engines", Community: "Analysts"}
	for _, c := range []struct {
		kinds []string
		who   notice.Who
		want  string
	}{
		{[]string{"comment", "mention"}, w, "Ada Lovelace mentioned you in Engines"},
		{[]string{"comment", "reply"}, w, "Ada Lovelace replied to your comment in Engines"},
		{[]string{"comment"}, notice.Who{}, "Someone commented on your post"},
		{[]string{"meetup-open"}, w, "Ada Lovelace scheduled a Meet Up in Engines"},
		{[]string{"meetup-invite"}, w, "Ada Lovelace invited you to a Meet Up in Engines"},
		{[]string{"meetup-seat"}, w, "A seat is yours at a Meet Up in Engines"},
		{[]string{"forum-access"}, w, "Ada Lovelace gave you access to Engines"},
		{[]string{"community-join"}, w, "You were added to Analysts"},
		{[]string{"message"}, w, "Ada Lovelace"},
		{nil, notice.Who{}, "Someone"},
		{[]string{"nudge"}, w, "Ada Lovelace"},
	} {
		if got := notice.Headline(c.kinds, c.who); got != c.want {
			t.Errorf("Headline(%v) = %q, want %q", c.kinds, got, c.want)
		}
	}
}

func TestMail(t *testing.T) {
	w := notice.Who{Author: "Ada Lovelace", Forum: "Engines", Community: "Analysts"}
	for _, c := range []struct{ kind, subject, intro string }{
		{"mention", "Ada Lovelace mentioned you", "Ada Lovelace mentioned you in Engines:"},
		{"meetup-open", "Ada Lovelace scheduled a Meet Up in Engines", "Ada Lovelace scheduled a Meet Up in Engines. Register for one of its seats:"},
		{"forum-access", "Ada Lovelace gave you access to Engines", "Ada Lovelace gave you access to Engines:"},
		{"community-join", "You were added to Analysts", "You were added to Analysts. Its forums are waiting for you:"},
		{"message", "Ada Lovelace sent you a message", "Ada Lovelace sent you a private message:"},
	} {
		if s, i := notice.Mail(c.kind, w); s != c.subject || i != c.intro {
			t.Errorf("Mail(%s) = %q, %q; want %q, %q", c.kind, s, i, c.subject, c.intro)
		}
	}
	if s, _ := notice.Mail("message", notice.Who{}); s != "Someone sent you a message" {
		t.Errorf("an anonymous message: %q", s)
	}
}

func TestReason(t *testing.T) {
	for _, c := range []struct {
		kinds []string
		want  string
	}{
		{[]string{"comment", "mention"}, "mention"},
		{[]string{"reply"}, "comment"},
		{[]string{"meetup-open"}, ""},
		{nil, ""},
	} {
		if got := notice.Reason(c.kinds); got != c.want {
			t.Errorf("Reason(%v) = %q, want %q", c.kinds, got, c.want)
		}
	}
}

// allowed is the list of values the newest migration that defines it
// allows in column of table: the column's inline CHECK in the table's
// CREATE TABLE, or a later ADD CONSTRAINT <table>_<column>_check.
func allowed(t *testing.T, table, column string) (values []string, version string) {
	t.Helper()
	files, err := db.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	in := `CHECK \(` + column + ` IN \(([^)]*)\)\)`
	create := regexp.MustCompile(`(?s)CREATE TABLE ` + table + ` \(.*?\n` + `\s*` + column + `\s+text\b[^\n]*?` + in)
	alter := regexp.MustCompile(`ADD CONSTRAINT ` + table + `_` + column + `_check\s+` + in)
	value := regexp.MustCompile(`'([^']*)'`)
	for _, f := range files {
		for _, re := range []*regexp.Regexp{create, alter} {
			ms := re.FindAllStringSubmatch(f.SQL, -1)
			if len(ms) == 0 {
				continue
			}
			values, version = nil, f.Version
			for _, v := range value.FindAllStringSubmatch(ms[len(ms)-1][1], -1) {
				values = append(values, v[1])
			}
		}
	}
	if version == "" {
		t.Fatalf("no migration defines the CHECK of %s.%s", table, column)
	}
	return values, version
}

// differ says how the table's list and the CHECK's differ, "" when they
// hold the same values.
func differ(table, check []string) string {
	var only, missing []string
	for _, k := range table {
		if !slices.Contains(check, k) {
			only = append(only, k)
		}
	}
	for _, k := range check {
		if !slices.Contains(table, k) {
			missing = append(missing, k)
		}
	}
	if len(only) == 0 && len(missing) == 0 {
		return ""
	}
	return "refused by the CHECK: [" + strings.Join(only, " ") + "]; allowed by it, not in the table: [" + strings.Join(missing, " ") + "]"
}

// TestMigrationsAllowTheKinds: the kinds of the table are the kinds
// notifications.kind allows, neither more (a row the projection could not
// write) nor fewer (a kind no user reads); and each kind's e-mail setting
// is one an unsubscribe link may name.
func TestMigrationsAllowTheKinds(t *testing.T) {
	check, version := allowed(t, "notifications", "kind")
	if d := differ(notice.Names(all), check); d != "" {
		t.Errorf("notice.Kinds and notifications_kind_check (%s) differ: %s; redefine the CHECK in a new migration", version, d)
	}
	settings, version := allowed(t, "unsubscribe_tokens", "setting")
	for _, k := range notice.Kinds {
		if k.Email != "" && !slices.Contains(settings, k.Email) {
			t.Errorf("%s: its mail's unsubscribe link names %q, which unsubscribe_tokens (%s) refuses", k.Name, k.Email, version)
		}
	}
}

// TestMigrationsCheckCatches: the comparison fails for a kind added to
// the table alone, and for one left out of it.
func TestMigrationsCheckCatches(t *testing.T) {
	check, _ := allowed(t, "notifications", "kind")
	if len(check) < 9 || !slices.Contains(check, "forum-access") {
		t.Fatalf("the newest CHECK read is %v", check)
	}
	if d := differ(append(notice.Names(all), "nudge"), check); !strings.Contains(d, "refused by the CHECK: [nudge]") {
		t.Errorf("a kind added to the table alone: %q", d)
	}
	if d := differ(notice.Names(all)[1:], check); !strings.Contains(d, "not in the table: [mention]") {
		t.Errorf("a kind left out of the table: %q", d)
	}
}

// TestReplyOf: a notification points at the comment or reply that is its
// source, never at its post itself, a Meet Up or nothing.
func TestReplyOf(t *testing.T) {
	post, comment, meetup := uuid.New(), uuid.New(), uuid.New()
	for _, c := range []struct {
		kind   string
		source uuid.UUID
		post   *uuid.UUID
		want   *uuid.UUID
	}{
		{notice.Comment, comment, &post, &comment},
		{notice.Mention, comment, &post, &comment},
		{notice.Reply, comment, &post, &comment},
		{notice.Mention, post, &post, nil},
		{notice.MeetupOpen, meetup, &post, nil},
		{notice.ForumAccess, uuid.New(), nil, nil},
	} {
		got := notice.ReplyOf(c.kind, c.source, c.post)
		if (got == nil) != (c.want == nil) || got != nil && *got != *c.want {
			t.Errorf("%s: %v, want %v", c.kind, got, c.want)
		}
	}
}
