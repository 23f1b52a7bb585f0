// Package demo writes the demo forums' discussions (app/seed's
// discussion files) into a freshly seeded demo organization, so that agora
// dev opens on forums with months of posts, comments, reactions, charts,
// links, past Meet Ups with their minutes and shared AI chats, and an
// Insights panel with content gaps, questions the AI search could not
// answer.
//
// The rows are the ones the product's own commands write (command/feed,
// command/meetup, command/aisearch's ShareChat, command/upload), with the
// same shapes and derived columns, and the same rules of who may do what
// checked against the seeded memberships; only their times are in the
// past. It lives beside those commands rather than in app/seed
// because it writes their wire shapes (a post's link, image and chat),
// which live here and in search/answer.
package demo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/app/seed"
	"agora/command/aisearch"
	"agora/internal/adapters/blob"
	"agora/internal/adapters/linkpreview"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/jsontime"
	"agora/internal/rules/message"
	"agora/internal/rules/richtext"
	"agora/search/answer"
)

// Writer writes the discussions; its store keeps the charts' blobs.
type Writer struct {
	store *blob.Store
}

// New builds the writer over the blob store the API serves uploads from.
func New(store *blob.Store) (*Writer, error) {
	if store == nil {
		return nil, errors.New("demo.New: nil dependency")
	}
	return &Writer{store: store}, nil
}

// person is a seeded user as the discussions need them.
type person struct {
	id          uuid.UUID
	first, last string
}

func (p person) name() string { return p.first + " " + p.last }

// forum is a demo forum: its ids and who is in it (user ids, in e-mail
// order, so that reactions are drawn the same on every run).
type forum struct {
	series, channel uuid.UUID
	members         []uuid.UUID
}

func (f forum) has(id uuid.UUID) bool { return slices.Contains(f.members, id) }

// rows is everything Write inserts, by table.
type rows struct {
	threads    []model.Threads
	replies    []model.Replies
	reactions  []model.Reactions
	uploads    []model.Uploads
	images     map[uuid.UUID]message.Attachments
	meetings   []model.Meetings
	invitees   []model.MeetingInvitees
	attendance []model.MeetingAttendance
	gaps       []model.ContentGaps
}

// Write inserts the discussions in tx, their times counted back from now
// (seed.Day), and puts the charts' blobs in the store. It is a seed.Writer:
// it runs once, in the seed's transaction, over the organization that
// transaction wrote. Anything the rules of the product would refuse (an
// author or a mention outside the forum, a citation of another forum's
// post) fails it with the file and line of the entry.
func (w *Writer) Write(ctx context.Context, tx pgx.Tx, now time.Time) error {
	ds, err := seed.Discussions()
	if err != nil {
		return err
	}
	people, forums, err := load(ctx, tx)
	if err != nil {
		return err
	}
	b := builder{w: w, people: people, day: seed.Day(ds, now), now: now.Truncate(time.Millisecond),
		threads: map[string]int{}, used: map[uuid.UUID]map[time.Time]bool{},
		rows: rows{images: map[uuid.UUID]message.Attachments{}}}
	for _, d := range ds {
		f, ok := forums[d.Forum]
		if !ok {
			return fmt.Errorf("demo: %s: no forum named %q", d.File, d.Forum)
		}
		for _, t := range d.Threads {
			if err := b.thread(f, t); err != nil {
				return err
			}
		}
		if err := b.contentGaps(f.series, d.Gaps); err != nil {
			return err
		}
	}
	// Chats cite posts of any file, so they are written once every post
	// has its id and text.
	for _, d := range ds {
		for _, t := range d.Threads {
			if t.Kind == seed.KindSharedChat {
				if err := b.chat(t); err != nil {
					return err
				}
			}
		}
	}
	return b.insert(ctx, tx)
}

// load reads the seeded people (by person key) and forums (by name).
func load(ctx context.Context, tx pgx.Tx) (map[string]person, map[string]forum, error) {
	u := table.Users
	rs, err := db.Query(ctx, tx, SELECT(u.ID, u.EmailKey, u.FirstName, u.LastName).FROM(u).
		WHERE(u.EmailKey.LIKE(String("%@demo.agora"))))
	if err != nil {
		return nil, nil, fmt.Errorf("demo: people: %w", err)
	}
	byEmail := map[string]person{}
	var email string
	var p person
	if _, err := pgx.ForEachRow(rs, []any{&p.id, &email, &p.first, &p.last}, func() error {
		byEmail[email] = p
		return nil
	}); err != nil {
		return nil, nil, fmt.Errorf("demo: people: %w", err)
	}
	people := map[string]person{}
	for e, p := range byEmail {
		key, _, _ := strings.Cut(e, "@")
		people[key] = p
	}
	for _, key := range []string{"admin", "expert", "member"} {
		if p, ok := byEmail[seed.PersonEmail(key)]; ok {
			people[key] = p
		}
	}

	s, c, co := table.Series, table.Channels, table.Communities
	rs, err = db.Query(ctx, tx, SELECT(s.Name, s.ID, c.ID).
		FROM(s.INNER_JOIN(co, co.ID.EQ(s.CommunityID)).INNER_JOIN(c, c.SeriesID.EQ(s.ID).AND(c.Kind.EQ(String("main"))))).
		WHERE(co.OrganizationID.EQ(UUID(seed.OrganizationID))))
	if err != nil {
		return nil, nil, fmt.Errorf("demo: forums: %w", err)
	}
	forums := map[string]forum{}
	names := map[uuid.UUID]string{}
	var name string
	var f forum
	if _, err := pgx.ForEachRow(rs, []any{&name, &f.series, &f.channel}, func() error {
		forums[name], names[f.series] = f, name
		return nil
	}); err != nil {
		return nil, nil, fmt.Errorf("demo: forums: %w", err)
	}
	sm, pr := table.SeriesMemberships, table.Profiles
	rs, err = db.Query(ctx, tx, SELECT(sm.SeriesID, pr.UserID).
		FROM(sm.INNER_JOIN(pr, pr.ID.EQ(sm.ProfileID))).
		WHERE(sm.Status.EQ(String("active")).AND(pr.UserID.IS_NOT_NULL()).AND(pr.OrganizationID.EQ(UUID(seed.OrganizationID)))).
		ORDER_BY(pr.EmailKey))
	if err != nil {
		return nil, nil, fmt.Errorf("demo: forum members: %w", err)
	}
	var series, user uuid.UUID
	if _, err := pgx.ForEachRow(rs, []any{&series, &user}, func() error {
		if n, ok := names[series]; ok {
			f := forums[n]
			f.members = append(f.members, user)
			forums[n] = f
		}
		return nil
	}); err != nil {
		return nil, nil, fmt.Errorf("demo: forum members: %w", err)
	}
	return people, forums, nil
}

// builder lays out the rows in memory.
type builder struct {
	w      *Writer
	people map[string]person
	day    time.Time
	now    time.Time
	// threads indexes the posts laid out so far (rows.threads) by key,
	// for the chats' sources.
	threads map[string]int
	// used are the createdOn times taken in each channel.
	used map[uuid.UUID]map[time.Time]bool
	rows
}

// past is t, or now when t is still to come.
func (b *builder) past(t time.Time) time.Time {
	if t.After(b.now) {
		return b.now
	}
	return t
}

// who is the seeded user of a person key, who must be in forum f.
func (b *builder) who(f forum, key, pos, role string) (person, error) {
	p, ok := b.people[key]
	switch {
	case !ok:
		return p, fmt.Errorf("demo: %s: %s %q is no demo person", pos, role, key)
	case !f.has(p.id):
		return p, fmt.Errorf("demo: %s: %s %q is not a member of the forum", pos, role, key)
	}
	return p, nil
}

// postTime is at, to the millisecond, made distinct among the channel's
// posts as message.PostTime makes it: the feed's cursor is a createdOn alone.
func (b *builder) postTime(channel uuid.UUID, at time.Time) time.Time {
	at = at.Truncate(time.Millisecond)
	if b.used[channel] == nil {
		b.used[channel] = map[time.Time]bool{}
	}
	for b.used[channel][at] {
		at = at.Add(time.Millisecond)
	}
	b.used[channel][at] = true
	return at
}

// text is body as the product stores it: each @person-key becomes a
// mention of that person, who must be in the forum, and the mentions and
// hashtags are derived from the result with internal/rules/richtext as
// command/feed derives them.
func (b *builder) text(f forum, e seed.Entry) (raw string, mentions, hashtags []string, err error) {
	names := map[uuid.UUID]string{}
	var out strings.Builder
	last := 0
	for _, m := range seed.Mentions(e.Body) {
		p, err := b.who(f, e.Body[m[2]:m[1]], e.Pos, "mention of")
		if err != nil {
			return "", nil, nil, err
		}
		names[p.id] = p.name()
		out.WriteString(e.Body[last:m[0]] + "[" + p.name() + "](" + p.id.String() + ")")
		last = m[1]
	}
	out.WriteString(e.Body[last:])
	raw = richtext.Rewrite(out.String(), func(id uuid.UUID) (string, bool) {
		n, ok := names[id]
		return n, ok
	})
	parsed := richtext.Parse(raw)
	mentions = []string{}
	for _, id := range parsed.Mentions {
		mentions = append(mentions, id.String())
	}
	return raw, mentions, parsed.Hashtags, nil
}

// thread lays out a post of any kind with its comments and reactions.
func (b *builder) thread(f forum, t seed.Thread) error {
	author, err := b.who(f, t.By, t.Pos, "author")
	if err != nil {
		return err
	}
	created := b.postTime(f.channel, t.At.From(b.day))
	row := model.Threads{ID: seed.DiscussionID(t.Key, created), ChannelID: f.channel, SeriesID: f.series, CreatorID: author.id,
		CreatorAs: "author", Type: t.Kind, Mentions: []string{}, Hashtags: []string{}, CreatedOn: created, UpdatedOn: created}
	switch t.Kind {
	case seed.KindMeetup:
		// A Meet Up's post is a post (command/meetup); its Meet Up is its
		// own row.
		row.Type = "post"
	case seed.KindSharedChat:
		row.Type = aisearch.KindSharedChat // its text and chat are written by chat
	}
	if t.Anonymous {
		row.CreatorAs = "anonymous"
	}
	if t.Kind != seed.KindSharedChat {
		if row.Raw, row.Mentions, row.Hashtags, err = b.text(f, t.Entry); err != nil {
			return err
		}
	}
	if t.Link != nil {
		if row.Link, err = link(*t.Link, t.Pos); err != nil {
			return err
		}
	}
	if t.Image != nil {
		if err := b.image(&row, t); err != nil {
			return err
		}
	}
	b.rows.threads = append(b.rows.threads, row)
	b.threads[t.Key] = len(b.rows.threads) - 1
	b.react(f, t.Entry, author.id, row.ID, nil, created)
	if t.Meetup != nil {
		if err := b.meetup(f, t, row); err != nil {
			return err
		}
	}
	for _, c := range t.Comments {
		id, err := b.reply(f, c.Entry, row.ID, nil)
		if err != nil {
			return err
		}
		for _, r := range c.Replies {
			if _, err := b.reply(f, r, row.ID, &id); err != nil {
				return err
			}
		}
	}
	return nil
}

// reply lays out a comment (parent nil) or a reply and its reactions.
func (b *builder) reply(f forum, e seed.Entry, thread uuid.UUID, parent *uuid.UUID) (uuid.UUID, error) {
	author, err := b.who(f, e.By, e.Pos, "author")
	if err != nil {
		return uuid.Nil, err
	}
	raw, mentions, hashtags, err := b.text(f, e)
	if err != nil {
		return uuid.Nil, err
	}
	created := e.At.From(b.day)
	id := seed.DiscussionID(e.Key, created)
	b.rows.replies = append(b.rows.replies, model.Replies{ID: id, ThreadID: thread, ParentID: parent, CreatorID: author.id,
		Raw: raw, Mentions: mentions, Hashtags: hashtags, CreatedOn: created, UpdatedOn: created})
	b.react(f, e, author.id, thread, &id, created)
	return id, nil
}

// react lays out e's reactions: each kind's count drawn from the forum's
// members other than the author, in an order made from e's key, so the
// same people react on every run and nobody twice (reactions_one). Counts
// past the members there are (a busy post of a small forum) are cut, the
// last kinds first.
func (b *builder) react(f forum, e seed.Entry, author, thread uuid.UUID, reply *uuid.UUID, created time.Time) {
	pool := slices.DeleteFunc(slices.Clone(f.members), func(id uuid.UUID) bool { return id == author })
	order := func(id uuid.UUID) string { return hash(e.Key + "/" + id.String()) }
	slices.SortFunc(pool, func(x, y uuid.UUID) int { return strings.Compare(order(x), order(y)) })
	i := 0
	for _, r := range e.Reactions {
		for range r.Count {
			if i == len(pool) {
				return
			}
			user := pool[i]
			i++
			// Reactions trickle in over the hours after the post.
			on := b.past(created.Add(time.Duration(i*17) * time.Minute))
			b.rows.reactions = append(b.rows.reactions, model.Reactions{ID: seed.DiscussionID(e.Key+"#reaction/"+user.String(), on),
				ThreadID: thread, ReplyID: reply, UserID: user, Kind: r.Kind, CreatedOn: on})
		}
	}
}

// link is a post's link column as command/feed stores what the link
// preview answered for a web page.
func link(l seed.Link, pos string) (*string, error) {
	u, err := url.Parse(l.URL)
	if err != nil {
		return nil, fmt.Errorf("demo: %s: link: %w", pos, err)
	}
	mediaType, viewer := "text/html", linkpreview.ViewerExternal
	fl := message.Link{URL: l.URL, MediaType: &mediaType, ViewerType: &viewer, Preview: &linkpreview.Preview{
		Title: l.Title, Description: l.Description, SiteName: strings.TrimPrefix(u.Hostname(), "www.")}}
	if p := fl.Problem(); p != "" {
		return nil, fmt.Errorf("demo: %s: link: %s", pos, p)
	}
	return message.JSONOrNull(&fl)
}

// image draws t's chart, keeps it in the blob store as a complete image
// upload of the author's, and gives the post the image column
// command/feed gives it; insert binds the upload to the post.
func (b *builder) image(row *model.Threads, t seed.Thread) error {
	png, err := drawChart(*t.Image)
	if err != nil {
		return err
	}
	st, err := b.w.store.Stage(bytes.NewReader(png), int64(len(png)))
	if err != nil {
		return fmt.Errorf("demo: %s: chart: %w", t.Pos, err)
	}
	id := seed.DiscussionID(t.Key+"#image", row.CreatedOn)
	sniffed := blob.Sniff(st.Head)
	if !blob.IsImageType(sniffed) {
		b.w.store.Discard(st)
		return fmt.Errorf("demo: %s: chart is %s, not an image", t.Pos, sniffed)
	}
	if err := b.w.store.Commit(st, id); err != nil {
		return err
	}
	served, size, name := blob.ServedType(sniffed), st.Size, t.Key+".png"
	b.rows.uploads = append(b.rows.uploads, model.Uploads{ID: id, OwnerID: row.CreatorID, Kind: "image", Name: name,
		DeclaredMediaType: "image/png", DeclaredSize: size, SniffedMediaType: &sniffed, MediaType: &served, Size: &size,
		State: "complete", CreatedOn: row.CreatedOn, CompletedOn: &row.CreatedOn})
	att := message.ImageAttachment(id, name)
	if row.Image, _, err = att.Stored(); err != nil {
		return err
	}
	b.rows.images[row.ID] = att
	return nil
}

// meetup lays out a past Meet Up of post row: its row as command/meetup
// schedules it and as it is once ended with its AI notes, its invitees
// (an open one's attendees held seats), and a session per attendee.
func (b *builder) meetup(f forum, t seed.Thread, row model.Threads) error {
	m := t.Meetup
	start := m.Starts.From(b.day)
	end := start.Add(time.Duration(m.Duration) * time.Minute)
	if !end.Before(b.now) {
		return fmt.Errorf("demo: %s: the Meet Up has not ended yet", t.Pos)
	}
	id := seed.DiscussionID(t.Key+"#meeting", row.CreatedOn)
	mt := model.Meetings{ID: id, ThreadID: row.ID, SeriesID: f.series, CreatorID: row.CreatorID, Name: m.Title, Agenda: m.Agenda,
		StartTime: start, Duration: int32(m.Duration), Open: m.Open, Breakouts: []string{}, EndedOn: &end,
		CreatedOn: row.CreatedOn, UpdatedOn: end}
	if m.Open {
		seats := int32(min(50, len(f.members)))
		mt.SeatCount = &seats
	}
	if m.Minutes != "" {
		state, on := "completed", b.past(end.Add(4*time.Minute))
		mt.MinutesState, mt.MinutesContent, mt.MinutesOn, mt.UpdatedOn = &state, &m.Minutes, &on, on
	}
	b.rows.meetings = append(b.rows.meetings, mt)

	attended := map[uuid.UUID]bool{}
	for _, key := range m.Attended {
		p, err := b.who(f, key, t.Pos, "attendee")
		if err != nil {
			return err
		}
		attended[p.id] = true
	}
	invited := map[uuid.UUID]bool{}
	for _, key := range m.Invitees {
		p, err := b.who(f, key, t.Pos, "invitee")
		if err != nil {
			return err
		}
		if p.id == row.CreatorID || invited[p.id] {
			continue
		}
		invited[p.id] = true
		inv := model.MeetingInvitees{MeetingID: id, UserID: p.id, Role: "member", CreatedOn: row.CreatedOn}
		if attended[p.id] {
			yes := "yes"
			inv.Response, inv.RespondedOn = &yes, &row.CreatedOn
		}
		b.rows.invitees = append(b.rows.invitees, inv)
	}
	for n, key := range m.Attended {
		p := b.people[key]
		if !m.Open && !invited[p.id] && p.id != row.CreatorID {
			return fmt.Errorf("demo: %s: attendee %q was not invited", t.Pos, key)
		}
		if m.Open && p.id != row.CreatorID && !invited[p.id] {
			registered := "registered"
			b.rows.invitees = append(b.rows.invitees, model.MeetingInvitees{MeetingID: id, UserID: p.id, Role: "member",
				Response: &registered, RespondedOn: &row.CreatedOn, CreatedOn: row.CreatedOn})
		}
		// People drift in over the first minutes and leave near the end.
		joined, left := start.Add(time.Duration(n%5)*time.Minute), end.Add(-time.Duration(n%3)*time.Minute)
		b.rows.attendance = append(b.rows.attendance, model.MeetingAttendance{ID: "PA_" + hash(t.Key + "/" + key)[:12],
			MeetingID: id, UserID: p.id, Room: id.String(), JoinedOn: joined, LeftOn: &left})
	}
	return nil
}

// chat gives shared chat t its chat as command/aisearch's ShareChat
// writes it: the questions and answers, each answer's [[key]] markers
// numbered [1], [2]… in order of first citation, with the cited posts as
// its sources; the post's text is the first question.
func (b *builder) chat(t seed.Thread) error {
	row := &b.rows.threads[b.threads[t.Key]]
	turns := t.Turns()
	chat := make([]aisearch.ChatMessage, 0, len(turns))
	for i, turn := range turns {
		// The turns were asked a couple of minutes apart before sharing.
		on := jsontime.Of(row.CreatedOn.Add(-time.Duration(2*(len(turns)-i)) * time.Minute))
		if turn.Question {
			chat = append(chat, aisearch.ChatMessage{Role: "user", Content: turn.Text, CreatedOn: on})
			continue
		}
		var sources []answer.Source
		var bad error
		content := seed.Citation.ReplaceAllStringFunc(turn.Text, func(marker string) string {
			key := seed.Citation.FindStringSubmatch(marker)[1]
			i, ok := b.threads[key]
			if !ok {
				bad = fmt.Errorf("demo: %s: the chat cites %q, no post", t.Pos, key)
				return marker
			}
			cited := b.rows.threads[i]
			for _, s := range sources {
				if s.ID == cited.ID.String() {
					return fmt.Sprintf("[%d]", s.N)
				}
			}
			switch {
			case cited.Type == aisearch.KindSharedChat:
				// The AI search never takes a shared chat as a source.
				bad = fmt.Errorf("demo: %s: the chat cites %q, a shared chat", t.Pos, key)
			case cited.SeriesID != row.SeriesID:
				bad = fmt.Errorf("demo: %s: the chat cites %q, a post of another forum", t.Pos, key)
			case !cited.CreatedOn.Before(row.CreatedOn):
				bad = fmt.Errorf("demo: %s: the chat cites %q, posted after it", t.Pos, key)
			}
			if bad != nil {
				return marker
			}
			// A post's source as the AI search retrieves it (search.Post
			// of projections/searchindex, answer.Sources).
			sources = append(sources, answer.Source{N: len(sources) + 1, ID: cited.ID.String(), ThreadID: cited.ID.String(),
				ChannelID: cited.ChannelID.String(), Kind: cited.Type, Excerpt: answer.Excerpt(richtext.Plain(cited.Raw), answer.ExcerptRunes)})
			return fmt.Sprintf("[%d]", len(sources))
		})
		if bad != nil {
			return bad
		}
		chat = append(chat, aisearch.ChatMessage{Role: "other", Content: content, Sources: sources, CreatedOn: on})
	}
	j, err := json.Marshal(chat)
	if err != nil {
		return fmt.Errorf("demo: %s: chat: %w", t.Pos, err)
	}
	s := string(j)
	row.Chat, row.Raw = &s, turns[0].Text
	return nil
}

// contentGaps lays out a forum's gaps as command/aisearch records them
// after their askings: one row per normalized question, counted, with the
// first and last time it was asked. Two gaps that normalize alike would
// be one row there, so here they are an error.
func (b *builder) contentGaps(series uuid.UUID, gaps []seed.Gap) error {
	seen := map[string]string{} // normalized question → its gap's place
	for _, g := range gaps {
		norm := aisearch.NormalizeQuestion(g.Question)
		switch prev, dup := seen[norm]; {
		case norm == "":
			return fmt.Errorf("demo: %s: the question has no letters or digits", g.Pos)
		case dup:
			return fmt.Errorf("demo: %s: the same question as the gap at %s, once normalized", g.Pos, prev)
		}
		seen[norm] = g.Pos
		last := g.At.From(b.day)
		first := g.FirstAsked(last)
		// The id is made when the question is first asked, as recordGap's.
		b.rows.gaps = append(b.rows.gaps, model.ContentGaps{ID: seed.DiscussionID(series.String()+"#gap/"+norm, first),
			SeriesID: series, Normalized: norm, Question: g.Question, AskedCount: int32(g.Asked),
			FirstAskedOn: first, LastAskedOn: last})
	}
	return nil
}

// insert writes the rows in foreign-key order, one multi-row INSERT per
// table, and binds the charts to their posts as command/feed does.
func (b *builder) insert(ctx context.Context, tx pgx.Tx) error {
	r := b.rows
	steps := []struct {
		name string
		n    int
		stmt Statement
	}{
		{"uploads", len(r.uploads), table.Uploads.INSERT(table.Uploads.AllColumns).MODELS(r.uploads)},
		{"threads", len(r.threads), table.Threads.INSERT(table.Threads.AllColumns).MODELS(r.threads)},
		{"replies", len(r.replies), table.Replies.INSERT(table.Replies.AllColumns).MODELS(r.replies)},
		{"reactions", len(r.reactions), table.Reactions.INSERT(table.Reactions.AllColumns).MODELS(r.reactions)},
		{"meetings", len(r.meetings), table.Meetings.INSERT(table.Meetings.AllColumns).MODELS(r.meetings)},
		{"meeting invitees", len(r.invitees), table.MeetingInvitees.INSERT(table.MeetingInvitees.AllColumns).MODELS(r.invitees)},
		{"meeting attendance", len(r.attendance), table.MeetingAttendance.INSERT(table.MeetingAttendance.AllColumns).MODELS(r.attendance)},
		{"content gaps", len(r.gaps), table.ContentGaps.INSERT(table.ContentGaps.AllColumns).MODELS(r.gaps)},
	}
	for _, s := range steps {
		if s.n == 0 {
			continue
		}
		if _, err := db.Exec(ctx, tx, s.stmt); err != nil {
			return fmt.Errorf("demo: insert %s: %w", s.name, err)
		}
	}
	for _, t := range r.threads {
		if att, ok := r.images[t.ID]; ok {
			if _, err := att.Bind(ctx, tx, message.PostOwner(t.ID), t.CreatedOn); err != nil {
				return err
			}
		}
	}
	return nil
}

func hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}
