package seed

import (
	"bufio"
	"context"
	"crypto/sha256"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
)

// The demo discussions are text files, one per demo forum, in the format of
// discussions/README.md: written by people, read by a parser that names the
// file and line of anything it cannot take, so a typo fails `agora dev` (and
// this package's tests) with a place to look rather than a vague row error.
// This file only reads them; app/demo writes their rows, as it needs
// the wire shapes of the feed and the AI search, which live above this
// package.

//go:embed discussions/*.txt
var discussionFiles embed.FS

// forumFiles names the file of each demo forum, in forums order.
var forumFiles = []string{"welcome.txt", "roadmaps.txt", "leadership.txt", "ml.txt", "guild.txt"}

// Discussion is the content of one demo forum.
type Discussion struct {
	// File is the file's name, e.g. "welcome.txt"; Forum the forum's name.
	File, Forum string
	Threads     []Thread
	Gaps        []Gap
}

// Ago is a time given as whole days before the seed runs and a UTC time of
// day ("84d 10:30").
type Ago struct {
	Days, Hour, Minute int
}

// From is the time a days before day (a UTC midnight) at a's time of day.
func (a Ago) From(day time.Time) time.Time {
	return day.AddDate(0, 0, -a.Days).Add(time.Duration(a.Hour)*time.Hour + time.Duration(a.Minute)*time.Minute)
}

// before orders a and b in time.
func (a Ago) before(b Ago) bool {
	if a.Days != b.Days {
		return a.Days > b.Days
	}
	return a.Hour*60+a.Minute < b.Hour*60+b.Minute
}

// Reaction is a count of one kind of reaction.
type Reaction struct {
	Kind  string
	Count int
}

// Entry is what every post, comment and reply has.
type Entry struct {
	// Pos is "file:line" of the entry's header, for errors.
	Pos string
	Key string
	// By is a person key (PersonEmail).
	By        string
	At        Ago
	Reactions []Reaction
	Body      string
}

// Thread kinds, as the files name them.
const (
	KindPost       = "post"
	KindQuestion   = "question"
	KindMeetup     = "meetup"
	KindSharedChat = "shared-chat"
)

// Thread is a post of any kind with its comments.
type Thread struct {
	Entry
	Kind      string
	Anonymous bool
	Image     *Chart
	Link      *Link
	// Meetup is set for KindMeetup.
	Meetup   *Meetup
	Comments []Comment
}

// Comment is a comment on a thread and the replies to it.
type Comment struct {
	Entry
	Replies []Entry
}

// Gap is a content gap: a question members asked the forum's AI search
// that its posts do not answer, Asked times, the last one At.
type Gap struct {
	// Pos is "file:line" of the entry's header, for errors.
	Pos      string
	At       Ago
	Asked    int
	Question string
}

// FirstAsked is when the gap was first asked, given when it was last: for
// a question asked more than once, Asked+1 days before, so a few days for
// the demo's counts and longer the more it was asked.
func (g Gap) FirstAsked(last time.Time) time.Time {
	if g.Asked == 1 {
		return last
	}
	return last.AddDate(0, 0, -(g.Asked + 1))
}

// Chart is an image the seeder draws: bars or a line of Values under the
// title Caption.
type Chart struct {
	Kind    string
	Caption string
	Values  []float64
}

// Link is a link preview stored as written.
type Link struct {
	URL, Title, Description string
}

// Meetup is a past Meet Up.
type Meetup struct {
	Title, Agenda      string
	Starts             Ago
	Duration           int
	Open               bool
	Invitees, Attended []string
	// Minutes is the body of the "--- minutes" entry; MinutesPos its place.
	Minutes, MinutesPos string
}

// Turn is one message of a shared chat: Question true for the asker's.
type Turn struct {
	Question bool
	Text     string
}

// Turns splits a shared chat's body into its "Q: " and "A: " messages;
// lines that start neither continue the message above.
func (t Thread) Turns() []Turn {
	var turns []Turn
	for _, line := range strings.Split(t.Body, "\n") {
		q, isQ := strings.CutPrefix(line, "Q: ")
		a, isA := strings.CutPrefix(line, "A: ")
		switch {
		case isQ:
			turns = append(turns, Turn{Question: true, Text: q})
		case isA:
			turns = append(turns, Turn{Text: a})
		case len(turns) > 0:
			turns[len(turns)-1].Text += "\n" + line
		}
	}
	for i := range turns {
		turns[i].Text = strings.TrimSpace(turns[i].Text)
	}
	return turns
}

// Citation matches a shared chat's [[thread-key]] marker.
var Citation = regexp.MustCompile(`\[\[([a-z0-9-]+)\]\]`)

// mention matches "@person.key"; whether it starts a word is checked apart
// (Go's regexp has no look-behind).
var mention = regexp.MustCompile(`@([a-z][a-z.]*[a-z])`)

// Mentions are the person keys a body mentions, with their byte ranges.
func Mentions(body string) [][3]int {
	var out [][3]int
	for _, m := range mention.FindAllStringSubmatchIndex(body, -1) {
		if m[0] > 0 {
			prev, _ := utf8.DecodeLastRuneInString(body[:m[0]])
			if prev == '@' || prev == '_' || prev >= '0' && prev <= '9' || prev >= 'a' && prev <= 'z' || prev >= 'A' && prev <= 'Z' {
				continue // part of a word or an address: not a mention
			}
		}
		out = append(out, [3]int{m[0], m[1], m[2]})
	}
	return out
}

// PersonEmail is the demo e-mail of a person key: the logins by their role
// (admin, expert, member), the others by their address's local part.
func PersonEmail(key string) string {
	switch key {
	case "admin":
		return AdminEmail
	case "expert":
		return ExpertEmail
	case "member":
		return MemberEmail
	}
	return key + "@demo.agora"
}

// Discussions parses the embedded demo discussions, one per demo forum
// (in forums order; a forum without a file has none).
func Discussions() ([]Discussion, error) {
	return ParseDiscussions(discussionFiles, "discussions")
}

// ParseDiscussions parses the forum files in dir of fsys. Keys are unique
// across all files; every problem found is reported, each with its file and
// line.
func ParseDiscussions(fsys fs.FS, dir string) ([]Discussion, error) {
	var out []Discussion
	var errs []string
	keys := map[string]string{}
	for f, name := range forumFiles {
		b, err := fs.ReadFile(fsys, path.Join(dir, name))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, fmt.Errorf("seed: discussions: %w", err)
		}
		d, e := parseFile(name, string(b), keys)
		d.Forum = forums[f].name
		out = append(out, d)
		errs = append(errs, e...)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("seed: discussions:\n%s", strings.Join(errs, "\n"))
	}
	return out, nil
}

var (
	header   = regexp.MustCompile(`^(===|---|----) (post|question|meetup|shared-chat|comment|reply|minutes|gap)(?: ([a-z0-9-]+))?\s*$`)
	field    = regexp.MustCompile(`^([a-z]+): (.*)$`)
	agoRE    = regexp.MustCompile(`^(\d+)d (\d\d):(\d\d)$`)
	reactRE  = regexp.MustCompile(`^(liked|loved|smiled|disliked|neutral) (\d+)$`)
	imageRE  = regexp.MustCompile(`^(bars|line) "([^"]{1,60})" (\d+(?:\.\d+)?(?:,\d+(?:\.\d+)?){1,11})$`)
	linkRE   = regexp.MustCompile(`^(https?://\S+) \| ([^|]+) \| ([^|]+)$`)
	durOK    = []int{15, 30, 45, 60, 90, 120}
	mark     = map[string]string{"post": "===", "question": "===", "meetup": "===", "shared-chat": "===", "comment": "---", "reply": "----", "minutes": "---", "gap": "==="}
	fieldsOf = map[string][]string{
		KindPost:       {"by", "at", "reactions", "image", "link"},
		KindQuestion:   {"by", "at", "reactions", "image", "link", "anonymous"},
		KindSharedChat: {"by", "at", "reactions", "image", "link"},
		KindMeetup:     {"by", "at", "reactions", "image", "link", "title", "agenda", "starts", "duration", "open", "invitees", "attended"},
		"comment":      {"by", "at", "reactions"},
		"reply":        {"by", "at", "reactions"},
		"minutes":      {},
		"gap":          {"at", "asked"},
	}
)

// raw is an entry as read, before its fields are checked.
type raw struct {
	kind, key, pos string
	fields         map[string]string
	body           []string
}

// parseFile reads one forum's file; keys holds the keys seen so far (key →
// place) across files.
func parseFile(name, text string, keys map[string]string) (Discussion, []string) {
	d := Discussion{File: name}
	var errs []string
	bad := func(pos, format string, a ...any) { errs = append(errs, pos+": "+fmt.Sprintf(format, a...)) }

	var entries []*raw
	var cur *raw
	inFields := false
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		pos := name + ":" + strconv.Itoa(n)
		if strings.HasPrefix(line, "//") {
			continue
		}
		if m := header.FindStringSubmatch(line); m != nil {
			if mark[m[2]] != m[1] {
				bad(pos, "%s must start with %s", m[2], mark[m[2]])
			}
			cur = &raw{kind: m[2], key: m[3], pos: pos, fields: map[string]string{}}
			entries = append(entries, cur)
			inFields = true
			continue
		}
		if strings.HasPrefix(line, "===") || strings.HasPrefix(line, "---") {
			bad(pos, "bad header %q", line)
			continue
		}
		switch {
		case cur == nil:
			if strings.TrimSpace(line) != "" {
				bad(pos, "text before the first entry")
			}
		case inFields && strings.TrimSpace(line) == "":
			inFields = false
		case inFields:
			m := field.FindStringSubmatch(line)
			if m == nil {
				bad(pos, `expected "field: value" or a blank line, got %q`, line)
				continue
			}
			if !slices.Contains(fieldsOf[cur.kind], m[1]) {
				bad(pos, "field %s not allowed on %s", m[1], cur.kind)
			}
			if _, dup := cur.fields[m[1]]; dup {
				bad(pos, "field %s given twice", m[1])
			}
			cur.fields[m[1]] = strings.TrimSpace(m[2])
		default:
			cur.body = append(cur.body, line)
		}
	}

	var thread *Thread
	var comment *Comment
	for _, r := range entries {
		body := strings.TrimSpace(strings.Join(r.body, "\n"))
		switch {
		case body == "":
			bad(r.pos, "empty body")
		case utf8.RuneCountInString(body) > 4000:
			bad(r.pos, "body longer than 4000 characters (%d)", utf8.RuneCountInString(body))
		}
		if r.kind == "minutes" {
			// Minutes belong to the meetup above, before or after its
			// comments.
			if thread == nil || thread.Meetup == nil || thread.Meetup.Minutes != "" {
				bad(r.pos, "minutes must follow their meetup entry, once")
				continue
			}
			thread.Meetup.Minutes, thread.Meetup.MinutesPos = body, r.pos
			continue
		}
		if r.kind == "gap" {
			d.Gaps = append(d.Gaps, parseGap(r, body, func(format string, a ...any) { bad(r.pos, format, a...) }))
			// A gap is no thread: comments and minutes below it have
			// nothing to belong to.
			thread, comment = nil, nil
			continue
		}
		e := Entry{Pos: r.pos, Key: r.key, By: r.fields["by"], Body: body}
		switch prev, dup := keys[r.key]; {
		case r.key == "":
			bad(r.pos, "%s needs a key", r.kind)
		case dup:
			bad(r.pos, "key %s used twice (first at %s)", r.key, prev)
		default:
			keys[r.key] = r.pos
		}
		if e.By == "" {
			bad(r.pos, "by is required")
		}
		var ok bool
		if e.At, ok = parseAgo(r.fields["at"]); !ok {
			bad(r.pos, "at %q is not like '84d 10:30'", r.fields["at"])
		}
		if v, set := r.fields["reactions"]; set {
			for _, part := range strings.Split(v, ",") {
				m := reactRE.FindStringSubmatch(strings.TrimSpace(part))
				if m == nil {
					bad(r.pos, "bad reactions %q", v)
					break
				}
				n, _ := strconv.Atoi(m[2])
				e.Reactions = append(e.Reactions, Reaction{Kind: m[1], Count: n})
			}
		}
		switch r.kind {
		case "comment":
			if thread == nil {
				bad(r.pos, "comment without a thread above")
				continue
			}
			if ok && !thread.At.before(e.At) {
				bad(r.pos, "comment not after its thread")
			}
			thread.Comments = append(thread.Comments, Comment{Entry: e})
			comment = &thread.Comments[len(thread.Comments)-1]
		case "reply":
			if comment == nil {
				bad(r.pos, "reply without a comment above")
				continue
			}
			if ok && !comment.At.before(e.At) {
				bad(r.pos, "reply not after its comment")
			}
			comment.Replies = append(comment.Replies, e)
		default:
			t := Thread{Entry: e, Kind: r.kind}
			parseThreadFields(&t, r.fields, func(format string, a ...any) { bad(r.pos, format, a...) })
			d.Threads = append(d.Threads, t)
			thread, comment = &d.Threads[len(d.Threads)-1], nil
		}
	}
	return d, errs
}

// parseGap reads a gap entry, whose body is the question.
func parseGap(r *raw, body string, bad func(string, ...any)) Gap {
	g := Gap{Pos: r.pos, Question: body}
	if r.key != "" {
		bad("a gap takes no key")
	}
	if n := utf8.RuneCountInString(body); n > 1000 {
		// The limit of content_gaps.question.
		bad("question longer than 1000 characters (%d)", n)
	}
	var ok bool
	if g.At, ok = parseAgo(r.fields["at"]); !ok {
		bad("at %q is not like '12d 10:30'", r.fields["at"])
	}
	// 32 bits: content_gaps.asked_count is an integer.
	n, err := strconv.ParseInt(r.fields["asked"], 10, 32)
	if err != nil || n < 1 {
		bad("asked %q is not a whole number of at least 1", r.fields["asked"])
	}
	g.Asked = int(n)
	return g
}

// parseThreadFields reads the fields only threads have.
func parseThreadFields(t *Thread, f map[string]string, bad func(string, ...any)) {
	switch v, set := f["anonymous"]; {
	case !set:
	case v == "yes":
		t.Anonymous = true
	default:
		bad("anonymous must be yes")
	}
	if v, set := f["image"]; set {
		m := imageRE.FindStringSubmatch(v)
		if m == nil {
			bad("bad image %q", v)
		} else {
			c := &Chart{Kind: m[1], Caption: m[2]}
			for _, s := range strings.Split(m[3], ",") {
				n, _ := strconv.ParseFloat(s, 64)
				c.Values = append(c.Values, n)
			}
			t.Image = c
		}
	}
	if v, set := f["link"]; set {
		m := linkRE.FindStringSubmatch(v)
		if m == nil {
			bad("bad link %q", v)
		} else {
			t.Link = &Link{URL: m[1], Title: strings.TrimSpace(m[2]), Description: strings.TrimSpace(m[3])}
		}
	}
	switch t.Kind {
	case KindSharedChat:
		turns := t.Turns()
		if len(turns) < 2 || !turns[0].Question || !slices.ContainsFunc(turns, func(x Turn) bool { return !x.Question }) {
			bad("a shared chat starts with a Q: line and has an A: line")
		}
	case KindMeetup:
		m := &Meetup{Title: f["title"], Agenda: f["agenda"], Invitees: list(f["invitees"]), Attended: list(f["attended"])}
		for _, r := range []string{"title", "agenda", "starts", "duration", "open"} {
			if _, set := f[r]; !set {
				bad("meetup needs %s", r)
			}
		}
		if n := utf8.RuneCountInString(m.Title); n < 1 || n > 75 {
			bad("title must have 1 to 75 characters")
		}
		if utf8.RuneCountInString(m.Agenda) > 250 {
			bad("agenda longer than 250 characters")
		}
		var ok bool
		if m.Starts, ok = parseAgo(f["starts"]); !ok {
			bad("starts %q is not like '30d 17:00'", f["starts"])
		}
		m.Duration, _ = strconv.Atoi(f["duration"])
		if !slices.Contains(durOK, m.Duration) {
			bad("duration must be one of 15, 30, 45, 60, 90, 120")
		}
		switch f["open"] {
		case "yes":
			m.Open = true
		case "no":
			if len(m.Invitees) == 0 {
				bad("a meetup with open: no needs invitees")
			}
		default:
			bad("open must be yes or no")
		}
		t.Meetup = m
	}
}

func list(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func parseAgo(v string) (Ago, bool) {
	m := agoRE.FindStringSubmatch(v)
	if m == nil {
		return Ago{}, false
	}
	a := Ago{}
	a.Days, _ = strconv.Atoi(m[1])
	a.Hour, _ = strconv.Atoi(m[2])
	a.Minute, _ = strconv.Atoi(m[3])
	return a, a.Hour < 24 && a.Minute < 60
}

// DiscussionID is the id of what key names (a thread, comment or reply; a
// suffix such as "#meeting" names a row that belongs to it), made at on: a
// UUIDv7 whose 48-bit time is on, in milliseconds, and whose other bits,
// version and variant aside, are a hash of key. The ids are the same on
// every seed run with the same clock, stay time-ordered like every other
// id, and name their key in their last 80 bits (KeySuffix) whatever day the
// seed ran.
func DiscussionID(key string, on time.Time) uuid.UUID {
	h := sha256.Sum256([]byte("agora-demo/" + key))
	var id uuid.UUID
	copy(id[6:], h[:10])
	ms := uint64(on.UnixMilli())
	for i := range 6 {
		id[i] = byte(ms >> (40 - 8*i))
	}
	id[6] = 0x70 | id[6]&0x0f // version 7
	id[8] = 0x80 | id[8]&0x3f // variant RFC 9562
	return id
}

// KeySuffix is the text of the last 80 bits of key's DiscussionID (its
// canonical form from the version digit on, "7xxx-yxxx-xxxxxxxxxxxx"), by
// which a seeded row is found from its key.
func KeySuffix(key string) string {
	return DiscussionID(key, time.Time{}).String()[14:]
}

// Day is the UTC midnight the discussions' times count back from: today's,
// or yesterday's when a time of today (or a Meet Up's end) would still be
// to come, so that everything seeded has happened.
func Day(ds []Discussion, now time.Time) time.Time {
	day := now.UTC().Truncate(24 * time.Hour)
	var times []time.Time
	for _, d := range ds {
		for _, t := range d.Threads {
			times = append(times, t.At.From(day))
			if t.Meetup != nil {
				times = append(times, t.Meetup.Starts.From(day).Add(time.Duration(t.Meetup.Duration)*time.Minute))
			}
			for _, c := range t.Comments {
				times = append(times, c.At.From(day))
				for _, r := range c.Replies {
					times = append(times, r.At.From(day))
				}
			}
		}
		for _, g := range d.Gaps {
			times = append(times, g.At.From(day))
		}
	}
	if slices.ContainsFunc(times, func(t time.Time) bool { return t.After(now) }) {
		return day.AddDate(0, 0, -1)
	}
	return day
}

// DiscussionThreadIDs maps the key of each seeded discussion thread to its
// id, found by the id's KeySuffix (the seed's day is not kept anywhere);
// a database seeded without the discussions answers an empty map.
func DiscussionThreadIDs(ctx context.Context, q db.Querier) (map[string]uuid.UUID, error) {
	ds, err := Discussions()
	if err != nil {
		return nil, err
	}
	bySuffix := map[string]string{}
	var suffixes []Expression
	for _, d := range ds {
		for _, t := range d.Threads {
			s := KeySuffix(t.Key)
			bySuffix[s] = t.Key
			suffixes = append(suffixes, String(s))
		}
	}
	out := map[string]uuid.UUID{}
	if len(suffixes) == 0 {
		return out, nil
	}
	th := table.Threads
	suffix := SUBSTR(CAST(th.ID).AS_TEXT(), Int(15))
	ids, err := db.Values[uuid.UUID](ctx, q, SELECT(th.ID).FROM(th).WHERE(suffix.IN(suffixes...)))
	if err != nil {
		return nil, fmt.Errorf("seed: discussion threads: %w", err)
	}
	for _, id := range ids {
		out[bySuffix[id.String()[14:]]] = id
	}
	return out, nil
}
