package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/valyala/fasthttp"

	"agora/app/seed"
	"agora/internal/rules/access"
)

// feedBench measures the feed page (GET /api/channels/{id}/threads, 10
// posts newest first, each with its counts and featured comment) on a
// forum of 100,000 posts, beside the same data read by bare SQL:
//
//	feed  bulk-loads 100,000 posts, their comments (and replies to them)
//	      and reactions into the main channel of the demo member's forum
//	      "Welcome & Introductions" with INSERT … SELECT, then VACUUM (ANALYZE)
//	      then measures the API open-loop at 500 requests a second (latency
//	      from each request's scheduled send time), the API closed-loop
//	      with 8 workers, and the same page read by one hand-written
//	      statement on pgx (bareSQL) with 8 workers, with the viewer's
//	      rights in the forum checked (the target's floor) and without.
//	      Pages start at createdBefore cursors sampled from the whole feed.
const (
	feedForum   = "Welcome & Introductions"
	feedPosts   = 100_000
	feedRate    = 500
	feedWorkers = 8
)

// Text for generated posts and comments, picked by row number.
const feedSentences = `ARRAY[
	'Hi all, I lead product at a mid-size fintech and just joined the circle.',
	'We are rethinking how we run discovery interviews and I would love to compare notes.',
	'Has anyone moved from quarterly planning to a rolling roadmap? How did leadership take it?',
	'Our team shipped a pricing experiment last month and the results surprised everyone.',
	'Looking for advice on hiring a first data PM: what should the interview loop test?',
	'Sharing the onboarding checklist we use for new engineers; feedback welcome.',
	'What metrics do you put in front of the board each quarter, and which ones do you regret?',
	'I am based in Lisbon and happy to meet anyone passing through for a coffee.',
	'Just finished a long migration off our legacy monolith; ask me anything about the trade-offs.',
	'How do you keep customer advisory boards useful after the first two meetings?',
	'We run weekly demo days and they changed how sales talks about the product.',
	'Curious how other teams write decision records and where they keep them.',
	'Our NPS went up after we removed three features. Still trying to understand why.',
	'Any recommendations for a good book on negotiation for product people?',
	'Working on an accessibility audit of our checkout and learning a lot.',
	'Is anyone using opportunity solution trees in practice, beyond the workshop?',
	'The hardest part of my week is saying no to good ideas from great colleagues.',
	'Happy to share the template we use for one-page product briefs.',
	'We are hiring two senior designers in Berlin, remote-friendly.',
	'What does a healthy ratio of maintenance to new work look like on your team?',
	'Thanks for the warm welcome, everyone. Looking forward to the next Meet Up.',
	'Great point. We saw the same thing when we moved to usage-based pricing.',
	'Could you share more about how you measured it?',
	'+1, this matches our experience with enterprise customers.',
	'We tried that and had to roll it back after two sprints; happy to explain why.'
]`

const feedTags = `ARRAY['introductions','roadmaps','discovery','hiring','pricing','metrics','leadership','design','analytics','meetups']`

// Twenty slots: half liked, then loved, smiled, neutral, disliked.
const feedKinds = `ARRAY['liked','liked','liked','liked','liked','liked','liked','liked','liked','liked',
	'loved','loved','loved','loved','smiled','smiled','smiled','neutral','neutral','disliked']`

const feedMembers = `(SELECT array_agg(p.user_id ORDER BY p.user_id) FROM series_memberships sm JOIN profiles p ON p.id = sm.profile_id
	WHERE sm.series_id = $2::uuid AND sm.status = 'active' AND p.user_id IS NOT NULL)`

// feedData is what the load made.
type feedData struct {
	channelID, seriesID       string
	posts, comments, children int64
	reactions                 int64
	cursors                   []time.Time
}

func loadFeed(ctx context.Context, pool *pgxpool.Pool) (feedData, error) {
	var f feedData
	if err := pool.QueryRow(ctx, `SELECT c.id::text, s.id::text FROM series s JOIN channels c ON c.series_id = s.id AND c.kind = 'main'
		WHERE s.name = $1`, feedForum).Scan(&f.channelID, &f.seriesID); err != nil {
		return f, fmt.Errorf("forum %q: %w", feedForum, err)
	}
	// $1 channel, $2 forum, $3 post count.
	steps := []struct{ name, sql string }{
		{"posts", `WITH m AS (SELECT ` + feedMembers + ` AS ids), s AS (SELECT ` + feedSentences + ` AS txt, ` + feedTags + ` AS tags)
			INSERT INTO threads (id, channel_id, series_id, creator_id, creator_as, type, raw, hashtags, created_on, updated_on)
			SELECT uuid_v7(), $1::uuid, $2::uuid, m.ids[1 + (g * 7919) % array_length(m.ids, 1)],
				CASE WHEN g % 50 = 0 THEN 'anonymous' ELSE 'author' END,
				CASE WHEN g % 10 = 0 THEN 'question' ELSE 'post' END,
				s.txt[1 + g % 20] || ' ' || s.txt[1 + (g * 31) % 20]
					|| CASE WHEN g % 3 = 0 THEN ' ' || s.txt[1 + (g * 17) % 20] ELSE '' END
					|| CASE WHEN g % 6 = 0 THEN ' #' || s.tags[1 + (g / 6) % 10] ELSE '' END,
				CASE WHEN g % 6 = 0 THEN ARRAY[s.tags[1 + (g / 6) % 10]] ELSE '{}'::text[] END,
				x.ts, x.ts
			FROM m, s, generate_series(1, $3::int) g,
				LATERAL (SELECT now() - interval '2 hours' - ($3::int - g) * interval '5 minutes' - (g % 240) * interval '1 second' AS ts) x`},
		// 0 to 3 comments a post, 1.5 on average.
		{"comments", `WITH m AS (SELECT ` + feedMembers + ` AS ids), s AS (SELECT ` + feedSentences + ` AS txt)
			INSERT INTO replies (id, thread_id, parent_id, creator_id, raw, created_on, updated_on)
			SELECT uuid_v7(), t.id, NULL, m.ids[1 + (t.h + k * 13) % array_length(m.ids, 1)], s.txt[1 + (t.h + k) % 25],
				t.created_on + k * interval '23 minutes', t.created_on + k * interval '23 minutes'
			FROM m, s, (SELECT id, created_on, hashtext(id::text) & 1073741823 AS h FROM threads
				WHERE channel_id = $1::uuid AND $2::uuid IS NOT NULL AND $3::int > 0) t
			CROSS JOIN LATERAL generate_series(1, t.h % 4) k`},
		// A reply on every third comment.
		{"replies", `WITH m AS (SELECT ` + feedMembers + ` AS ids), s AS (SELECT ` + feedSentences + ` AS txt)
			INSERT INTO replies (id, thread_id, parent_id, creator_id, raw, created_on, updated_on)
			SELECT uuid_v7(), r.thread_id, r.id, m.ids[1 + (r.h / 3) % array_length(m.ids, 1)], s.txt[21 + r.h % 5],
				r.created_on + interval '7 minutes', r.created_on + interval '7 minutes'
			FROM m, s, (SELECT r.id, r.thread_id, r.created_on, hashtext(r.id::text) & 1073741823 AS h
				FROM replies r JOIN threads t ON t.id = r.thread_id
				WHERE t.channel_id = $1::uuid AND r.parent_id IS NULL AND $3::int > 0) r
			WHERE r.h % 3 = 0`},
		// 0 to 4 reactions a post (2 on average) and 0 or 1 a comment or
		// reply, from distinct members.
		{"reactions", `WITH m AS (SELECT ` + feedMembers + ` AS ids), k AS (SELECT ` + feedKinds + ` AS kinds)
			INSERT INTO reactions (id, thread_id, reply_id, user_id, kind, created_on)
			SELECT uuid_v7(), t.id, NULL, m.ids[1 + (t.h + j) % array_length(m.ids, 1)], k.kinds[1 + ((t.h >> 5) + j * 7) % 20],
				t.created_on + (j + 1) * interval '3 minutes'
			FROM m, k, (SELECT id, created_on, hashtext(id::text) & 1073741823 AS h FROM threads
				WHERE channel_id = $1::uuid AND $3::int > 0) t
			CROSS JOIN LATERAL generate_series(0, (t.h >> 3) % 5 - 1) j
			UNION ALL
			SELECT uuid_v7(), r.thread_id, r.id, m.ids[1 + (r.h >> 4) % array_length(m.ids, 1)], k.kinds[1 + (r.h >> 6) % 20],
				r.created_on + interval '4 minutes'
			FROM m, k, (SELECT r.id, r.thread_id, r.created_on, hashtext(r.id::text) & 1073741823 AS h
				FROM replies r JOIN threads t ON t.id = r.thread_id WHERE t.channel_id = $1::uuid) r
			WHERE r.h % 2 = 0`},
	}
	for _, s := range steps {
		if _, err := pool.Exec(ctx, s.sql, f.channelID, f.seriesID, feedPosts); err != nil {
			return f, fmt.Errorf("load %s: %w", s.name, err)
		}
	}
	if _, err := pool.Exec(ctx, `VACUUM (ANALYZE) threads, replies, reactions`); err != nil {
		return f, err
	}
	{
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM threads WHERE channel_id = $1::uuid`, f.channelID).Scan(&f.posts); err != nil {
			return f, err
		}
		if err := pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE r.parent_id IS NULL), count(*) FILTER (WHERE r.parent_id IS NOT NULL)
			FROM replies r JOIN threads t ON t.id = r.thread_id WHERE t.channel_id = $1::uuid`, f.channelID).Scan(&f.comments, &f.children); err != nil {
			return f, err
		}
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM reactions x JOIN threads t ON t.id = x.thread_id WHERE t.channel_id = $1::uuid`,
			f.channelID).Scan(&f.reactions); err != nil {
			return f, err
		}
	}
	// Cursors over the whole feed, none so old that its page is short.
	rows, err := pool.Query(ctx, `SELECT created_on FROM threads WHERE channel_id = $1::uuid
		AND created_on > (SELECT created_on FROM threads WHERE channel_id = $1::uuid ORDER BY created_on LIMIT 1 OFFSET 20)
		ORDER BY random() LIMIT 5000`, f.channelID)
	if err != nil {
		return f, err
	}
	defer rows.Close()
	for rows.Next() {
		var t time.Time
		if err := rows.Scan(&t); err != nil {
			return f, err
		}
		f.cursors = append(f.cursors, t)
	}
	return f, rows.Err()
}

// feedProfile names a file for a CPU profile of this process (the API and
// the load generator) over the API measurements, to see where a page's time
// goes: go tool pprof -top FILE.
var feedProfile = flag.String("feed-cpuprofile", "", "write a CPU profile of the feed benchmark's API measurements to this file")

func feedBench(ctx context.Context, selected map[string]bool, c *client, pool *pgxpool.Pool, password string, duration, warmup time.Duration) error {
	if !selected["feed"] {
		return nil
	}
	start := time.Now()
	f, err := loadFeed(ctx, pool)
	if err != nil {
		return fmt.Errorf("feed: %w", err)
	}
	fmt.Printf("feed data: forum %q main channel, %s posts, %s comments + %s replies to them, %s reactions; loaded (INSERT … SELECT), vacuumed and analyzed in %.1f s\n",
		feedForum, thousands(f.posts), thousands(f.comments), thousands(f.children), thousands(f.reactions), time.Since(start).Seconds())

	token, err := c.signIn(ctx, seed.MemberEmail, password)
	if err != nil {
		return fmt.Errorf("feed: %w", err)
	}
	var viewer, channel [16]byte
	if err := pool.QueryRow(ctx, `SELECT id FROM users WHERE email_key = $1`, seed.MemberEmail).Scan(&viewer); err != nil {
		return fmt.Errorf("feed: viewer: %w", err)
	}
	if err := pool.QueryRow(ctx, `SELECT $1::uuid`, f.channelID).Scan(&channel); err != nil {
		return fmt.Errorf("feed: channel: %w", err)
	}
	// cursor is the createdBefore of a page, nil for the first page (one
	// page in twenty).
	cursor := func() *time.Time {
		if rand.IntN(20) == 0 {
			return nil
		}
		return &f.cursors[rand.IntN(len(f.cursors))]
	}
	// The load generator shares the machine's CPU with the API it
	// measures, so it uses fasthttp's client, which costs a fraction of
	// net/http's per call: what it saves goes to the API.
	// Its read buffer holds a whole page (14–18 KB), read in one call
	// rather than in four of the 4 KB default.
	hc := &fasthttp.HostClient{Addr: strings.TrimPrefix(c.base, "http://"), MaxConns: 1 << 14, ReadBufferSize: 64 << 10,
		ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second}
	defer hc.CloseIdleConnections()
	auth := "Bearer " + token
	api := func(context.Context) error {
		uri := c.base + "/api/channels/" + f.channelID + "/threads?pageSize=10"
		if cur := cursor(); cur != nil {
			uri += "&createdBefore=" + url.QueryEscape(cur.Format(time.RFC3339Nano))
		}
		req, res := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
		defer fasthttp.ReleaseRequest(req)
		defer fasthttp.ReleaseResponse(res)
		req.SetRequestURI(uri)
		req.Header.Set(fasthttp.HeaderAuthorization, auth)
		if err := hc.Do(req, res); err != nil {
			return err
		}
		if res.StatusCode() != fasthttp.StatusOK || len(res.Body()) == 0 {
			return fmt.Errorf("GET %s: %d %s", uri, res.StatusCode(), res.Body())
		}
		return nil
	}
	sqlPage := func(rights bool) func(context.Context) error {
		return func(ctx context.Context) error { return barePage(ctx, pool, rights, channel, viewer, cursor()) }
	}

	// A first page through the API must be a full page.
	var page struct {
		Results []struct {
			Replies []any `json:"replies"`
		} `json:"results"`
	}
	if _, err := c.do(ctx, "GET", "/api/channels/"+f.channelID+"/threads?pageSize=10", token, nil, &page); err != nil {
		return fmt.Errorf("feed: %w", err)
	}
	if len(page.Results) != 10 {
		return fmt.Errorf("feed: first page has %d posts, want 10", len(page.Results))
	}

	stopProfile, err := startProfile(*feedProfile)
	if err != nil {
		return fmt.Errorf("feed: %w", err)
	}
	defer stopProfile()

	clock := newCPUClock(ctx, pool)
	label := fmt.Sprintf("feed page (%s posts, %s comments, %s reactions), API at %d req/s:",
		thousands(f.posts), thousands(f.comments+f.children), thousands(f.reactions), feedRate)
	// The open loop's warm-up is long enough for the API's pool to open
	// its connections and for each to prepare its statements (Postgres
	// plans a prepared statement afresh for its first five runs): what is
	// measured is a warm server.
	openWarmup := max(5*time.Second, warmup)
	call, cpu := clock.meter(api, openWarmup)
	open, achieved, errs, err := openLoop(ctx, feedRate, openWarmup, 2*duration, call)
	if err != nil {
		return fmt.Errorf("feed: %w", err)
	}
	fmt.Printf("%s p50 %6.2f ms  p99 %6.2f ms  (achieved %.0f req/s, n=%d in %.1f s, %d errors; latency from scheduled send)\n",
		label, ms(open.p(50)), ms(open.p(99)), achieved, open.n(), open.wall.Seconds(), errs)
	fmt.Printf("    %s\n", cpu())

	call, cpu = clock.meter(api, warmup)
	apiClosed, apiErrs, err := closedLoop(ctx, feedWorkers, warmup, duration, call)
	if err != nil {
		return fmt.Errorf("feed: %w", err)
	}
	fmt.Printf("%-48s %8.0f req/s   p50 %6.2f ms  p99 %6.2f ms  (n=%d in %.1f s, %d errors)\n",
		"feed page, API closed loop 8 workers:", apiClosed.rate(), ms(apiClosed.p(50)), ms(apiClosed.p(99)), apiClosed.n(), apiClosed.wall.Seconds(), apiErrs)
	fmt.Printf("    %s\n", cpu())

	stopProfile()

	// The target is against the page with the rights check, which the API
	// cannot do without; the page without it is printed beside, to show
	// what the check costs.
	var ratio float64
	var sqlErrs int64
	for _, rights := range []bool{true, false} {
		call, cpu = clock.meter(sqlPage(rights), warmup)
		bare, n, err := closedLoop(ctx, feedWorkers, warmup, duration, call)
		if err != nil {
			return fmt.Errorf("feed: %w", err)
		}
		sqlErrs += n
		r := 0.0
		if bare.rate() > 0 {
			r = apiClosed.rate() / bare.rate()
		}
		label := "feed page, bare SQL and rights (pgx) 8 workers:"
		if rights {
			ratio = r
		} else {
			label = "  bare SQL without the rights check:"
		}
		fmt.Printf("%-48s %8.0f q/s     p50 %6.2f ms  p99 %6.2f ms  (n=%d in %.1f s, %d errors); API/SQL throughput ratio %.2f\n",
			label, bare.rate(), ms(bare.p(50)), ms(bare.p(99)), bare.n(), bare.wall.Seconds(), n, r)
		fmt.Printf("    %s\n", cpu())
	}
	fmt.Printf("feed target: p99 <= 10 ms at %d req/s (%s), API >= 0.8 x bare-SQL throughput with the rights check (%s)\n",
		feedRate, verdict(open.p(99) <= 10*time.Millisecond && achieved >= 0.95*feedRate), verdict(ratio >= 0.8))
	if errs+apiErrs+sqlErrs > 0 {
		return fmt.Errorf("feed: %d requests failed", errs+apiErrs+sqlErrs)
	}
	return nil
}

// startProfile starts a CPU profile into file, when one is named; stop ends
// it and may be called more than once.
func startProfile(file string) (stop func(), err error) {
	if file == "" {
		return func() {}, nil
	}
	out, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(out); err != nil {
		out.Close()
		return nil, err
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			pprof.StopCPUProfile()
			out.Close()
		})
	}, nil
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "missed"
}

func thousands(n int64) string {
	s := fmt.Sprint(n)
	out := ""
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out += ","
		}
		out += string(r)
	}
	return out
}

// bareSQL reads one feed page the best way we know in SQL, written here
// apart from query/feed: one statement, one round trip, for the 10 newest
// posts before the cursor $2 (null for the first page) in the channel $1,
// each with what the API's page holds of it: its creator (and their expert
// flag in the forum), its counts of comments and of comments with replies,
// whether it is a Meet Up's, its reaction counts and the viewer's ($3) own;
// then its first comment and that comment's replies, with the same. With
// rights, the page is read only if the viewer may read the forum, by the
// product's one rule (access.ForumSQL, $4 whether the viewer is a super
// user): the API cannot serve a page without that check, and no cheaper
// statement of the rule was found (a rewrite as one join of the viewer's
// profiles to their memberships ran no faster under pgbench). It leaves
// out what only the API does: the session lookup, hiding anonymous
// creators, signing upload URLs, and JSON.
func bareSQL(rights bool) string {
	acc := `SELECT true AS reads`
	if rights {
		member, admin := access.ForumSQL("$3", "$4")
		acc = `SELECT (m.member OR m.admin) AND (c.kind <> 'admin' OR m.admin) AS reads
		FROM channels c JOIN series s ON s.id = c.series_id,
			LATERAL (SELECT ` + member + ` AS member, ` + admin + ` AS admin OFFSET 0) m
		WHERE c.id = $1`
	}
	return `WITH acc AS (` + acc + `),
	page AS (
		SELECT t.* FROM acc, threads t WHERE acc.reads AND t.channel_id = $1 AND t.created_on < COALESCE($2::timestamptz, 'infinity')
		ORDER BY t.created_on DESC, t.id DESC LIMIT 10
	),
	items AS (
		SELECT 0 AS sec, t.id, t.id AS thread_id, NULL::uuid AS parent_id, t.channel_id, t.series_id, t.type, t.creator_as, t.creator_id,
			t.raw, t.image, t.file, t.link, t.meeting, t.chat, t.mentions::text[] AS mentions, t.hashtags, t.created_on, t.updated_on,
			n.replies_count, n.comments_count, EXISTS (SELECT 1 FROM meetings mt WHERE mt.thread_id = t.id) AS has_meeting,
			'00000000-0000-0000-0000-000000000000'::uuid AS reaction_key
		FROM page t
		CROSS JOIN LATERAL (SELECT count(*)::int AS replies_count, count(*) FILTER (WHERE c.parent_id IS NULL)::int AS comments_count
			FROM replies c WHERE c.thread_id = t.id) n
		UNION ALL
		SELECT 1, r.id, r.thread_id, r.parent_id, NULL, t.series_id, NULL, NULL, r.creator_id,
			r.raw, NULL, NULL, NULL, NULL, NULL, r.mentions::text[], r.hashtags, r.created_on, r.updated_on, 0, 0, false, r.id
		FROM page t
		CROSS JOIN LATERAL (SELECT f.id FROM replies f WHERE f.thread_id = t.id AND f.parent_id IS NULL
		                    ORDER BY f.created_on, f.id LIMIT 1) f
		JOIN replies r ON COALESCE(r.parent_id, r.id) = f.id
	)
	SELECT i.sec, i.id, i.thread_id, i.parent_id, i.channel_id, i.type, i.creator_as, i.creator_id, i.raw, i.image, i.file, i.link, i.meeting, i.chat,
		i.mentions, i.hashtags, i.created_on, i.updated_on, i.replies_count, i.comments_count, i.has_meeting, u.first_name, u.last_name, u.avatar,
		EXISTS (SELECT 1 FROM series_memberships sm JOIN profiles p ON p.id = sm.profile_id
		        WHERE p.user_id = u.id AND sm.series_id = i.series_id AND sm.is_expert AND sm.status = 'active'),
		x.liked, x.loved, x.smiled, x.disliked, x.neutral, x.mine
	FROM items i JOIN users u ON u.id = i.creator_id
	CROSS JOIN LATERAL (
		SELECT count(*) FILTER (WHERE kind = 'liked')::int AS liked, count(*) FILTER (WHERE kind = 'loved')::int AS loved,
			count(*) FILTER (WHERE kind = 'smiled')::int AS smiled, count(*) FILTER (WHERE kind = 'disliked')::int AS disliked,
			count(*) FILTER (WHERE kind = 'neutral')::int AS neutral, max(kind) FILTER (WHERE user_id = $3) AS mine
		FROM reactions
		WHERE thread_id = i.thread_id AND COALESCE(reply_id, '00000000-0000-0000-0000-000000000000'::uuid) = i.reaction_key
	) x
	ORDER BY i.sec, CASE WHEN i.sec = 0 THEN i.created_on END DESC, CASE WHEN i.sec = 0 THEN i.id END DESC, i.created_on, i.id`
}

// The two statements bareSQL writes.
var bareRightsSQL, bareNoRightsSQL = bareSQL(true), bareSQL(false)

// barePage reads one feed page with a statement of bareSQL (with rights
// when rights) and scans every column of every row into Go values; a page
// without posts is an error.
func barePage(ctx context.Context, pool *pgxpool.Pool, rights bool, channelID, viewer [16]byte, before *time.Time) error {
	sql, args := bareNoRightsSQL, []any{channelID, before, viewer}
	if rights {
		sql, args = bareRightsSQL, append(args, false)
	}
	rows, err := pool.Query(ctx, sql, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	posts := 0
	for rows.Next() {
		var (
			sec, repliesCount, commentsCount        int
			id, threadID, creatorID                 [16]byte
			parentID, channel                       pgtype.UUID
			typ, creatorAs, mine                    pgtype.Text
			raw, first, last                        string
			avatar                                  *string
			image, file, link, meeting, chat        []byte
			mentions, hashtags                      []string
			created, updated                        time.Time
			hasMeeting, expert                      bool
			liked, loved, smiled, disliked, neutral int
		)
		if err := rows.Scan(&sec, &id, &threadID, &parentID, &channel, &typ, &creatorAs, &creatorID, &raw, &image, &file, &link, &meeting, &chat,
			&mentions, &hashtags, &created, &updated, &repliesCount, &commentsCount, &hasMeeting, &first, &last, &avatar, &expert,
			&liked, &loved, &smiled, &disliked, &neutral, &mine); err != nil {
			return err
		}
		if sec == 0 {
			posts++
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if posts == 0 {
		return errors.New("empty page")
	}
	return nil
}

// openLoop starts one call every 1/rate seconds, whether or not earlier
// ones have answered, for warmup (not counted) and then d. Latency runs
// from each call's scheduled start, so a slow server is not hidden by a
// sender that waits. achieved is the counted calls over the time from the
// first counted scheduled start to the last counted answer.
func openLoop(ctx context.Context, rate int, warmup, d time.Duration, call func(context.Context) error) (result, float64, int64, error) {
	interval := time.Second / time.Duration(rate)
	nWarm := int(warmup / interval)
	n := nWarm + int(d/interval)
	lat := make([]time.Duration, n)
	ok := make([]bool, n)
	var failed atomic.Int64
	var firstErr atomic.Value
	var lastMu sync.Mutex
	var last time.Time
	var wg sync.WaitGroup
	start := time.Now().Add(20 * time.Millisecond)
	for i := 0; i < n && ctx.Err() == nil; i++ {
		at := start.Add(time.Duration(i) * interval)
		time.Sleep(time.Until(at))
		wg.Add(1)
		go func(i int, at time.Time) {
			defer wg.Done()
			err := call(ctx)
			done := time.Now()
			if i < nWarm {
				return
			}
			if err != nil {
				firstErr.CompareAndSwap(nil, err.Error())
				failed.Add(1)
				return
			}
			lat[i], ok[i] = done.Sub(at), true
			lastMu.Lock()
			if done.After(last) {
				last = done
			}
			lastMu.Unlock()
		}(i, at)
	}
	wg.Wait()
	if ctx.Err() != nil {
		return result{}, 0, 0, errors.New("interrupted")
	}
	if e, _ := firstErr.Load().(string); e != "" {
		fmt.Printf("first error: %s\n", e)
	}
	var all []time.Duration
	for i := nWarm; i < n; i++ {
		if ok[i] {
			all = append(all, lat[i])
		}
	}
	wall := last.Sub(start.Add(time.Duration(nWarm) * interval))
	r := newResult(all, wall)
	return r, r.rate(), failed.Load(), nil
}
