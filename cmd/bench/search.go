package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strings"
	"time"
	"unicode"

	"agora/search"
)

// searchBench measures the embedded search engine (search.OpenEmbedded in
// a temporary folder, no server) on generated data:
//
//	search-index    Upsert throughput, in batches of -search-batch, while
//	                loading -search-members members and -search-posts posts
//	search-members  the member-search dialog: type-ahead prefixes of a
//	                first or last name (1 to 6 letters), full names as
//	                "ada love", names with one typo, each in one community,
//	                5 hits and the total
//	search-posts    post search as the AI search sends it: 2 to 5 words
//	                from a post of the forum, a third of them with one typo,
//	                under ReadableBy(user, the main channels of the 10 to 20
//	                forums the user reads) and In(forumId), 8 hits
//
// Data and queries come from fixed seeds. After the load the engine is
// left to persist and merge its segments (search.Settle), so the queries,
// sequential after a warm-up, see a steady index.
var (
	searchMembersN = flag.Int("search-members", 100_000, "member documents of the search benchmarks")
	searchPostsN   = flag.Int("search-posts", 1_000_000, "post documents of the search benchmarks")
	searchQueriesN = flag.Int("search-queries", 2000, "timed queries of search-members and of search-posts")
	searchWarmupN  = flag.Int("search-warmup", 200, "untimed warm-up queries before each search benchmark")
	searchBatchN   = flag.Int("search-batch", 5000, "documents per Upsert when loading the search data")
	searchDir      = flag.String("search-dir", "", "keep the search indexes in this folder instead of a temporary one; a later run with the same sizes reuses them and skips the load (not with search-index)")
	searchProfile  = flag.String("search-cpuprofile", "", "write a CPU profile of the timed search queries to this file")
	searchSlowest  = flag.Int("search-slowest", 0, "print this many of the slowest timed search queries, with their text")
	searchLoadProf = flag.String("search-load-cpuprofile", "", "write a CPU profile of the search data's load (generation, Upsert, settling) to this file")
)

const (
	searchSeed        = 20260601
	searchCommunities = 50
	searchForums      = 300 // forums members belong to; the first postForums hold the posts
	postForums        = 200
	memberLimit       = 5 // the member dialog shows 5 and a total
	postLimit         = 8 // the AI search reads 8 posts
	sampleSize        = 64
)

// searchWorld is the generated data, and what of it the queries are drawn
// from.
type searchWorld struct {
	communities []string
	communityW  *weighted
	forums      []string // forum i is in community i % searchCommunities
	channels    []string // each forum's main channel
	postForumW  *weighted
	members     []search.Member
	byCommunity [][]int // indexes of members, per community

	words []string
	zipf  *rand.Zipf
	tags  []string
	// recent threads and comments per forum, which comments and replies
	// answer.
	threads, comments [][]string
	created           int64
	samples           [][]string // up to sampleSize post texts per post forum
	seenPerForum      []int
	authors           []string
	kindCount         map[string]int
}

func searchBench(ctx context.Context, selected map[string]bool) error {
	if !selected["search-index"] && !selected["search-members"] && !selected["search-posts"] {
		return nil
	}
	nMembers, nPosts, batch := *searchMembersN, *searchPostsN, *searchBatchN
	if nMembers < 1 || nPosts < 1 || *searchQueriesN < 1 || *searchWarmupN < 0 || batch < 1 {
		return fmt.Errorf("search: -search-members, -search-posts, -search-queries and -search-batch must be positive, -search-warmup not negative")
	}
	dir := *searchDir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "agora-search-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	store, err := search.OpenEmbedded(dir)
	if err != nil {
		return err
	}
	defer store.Close()

	rng := rand.New(rand.NewPCG(searchSeed, 1))
	w := newSearchWorld(rng)
	fmt.Printf("search: embedded engine (Bleve) in %s; %s members in %d communities (%d forums), %s posts in %d forums; seed %d\n",
		dir, thousands(int64(nMembers)), searchCommunities, searchForums, thousands(int64(nPosts)), postForums, searchSeed)

	reused := *searchDir != "" && !selected["search-index"] && w.holds(ctx, store, nMembers, nPosts)
	// The documents are generated even when the index is reused: the
	// queries are drawn from them.
	w.makeMembers(rng, nMembers)
	var mLoad, pLoad loadStat
	stopLoadProfile, err := startProfile(*searchLoadProf)
	if err != nil {
		return err
	}
	defer stopLoadProfile()
	// On a shared machine the CPU time of the load says more than its
	// rate: it is what the load costs, whatever else runs.
	cpuStart := cpuClock{}.read().self
	start := time.Now()
	if !reused {
		for i := 0; i < nMembers; i += batch {
			docs := w.members[i:min(i+batch, nMembers)]
			t0 := time.Now()
			if err := store.Members().Upsert(ctx, docs...); err != nil {
				return fmt.Errorf("search: load members: %w", err)
			}
			mLoad.add(len(docs), time.Since(t0))
		}
	}
	membersLoaded := time.Since(start)
	for i := 0; i < nPosts; i += batch {
		docs := w.makePosts(rng, min(batch, nPosts-i))
		if reused {
			continue
		}
		t0 := time.Now()
		if err := store.Posts().Upsert(ctx, docs...); err != nil {
			return fmt.Errorf("search: load posts: %w", err)
		}
		pLoad.add(len(docs), time.Since(t0))
	}
	loaded := time.Since(start)
	settleStart := time.Now()
	states, err := search.Settle(ctx, store)
	if err != nil {
		return fmt.Errorf("search: settle: %w", err)
	}
	settled := time.Since(settleStart)
	loadCPU := cpuClock{}.read().self - cpuStart
	stopLoadProfile()
	kinds := make([]string, 0, len(w.kindCount))
	for k, n := range w.kindCount {
		kinds = append(kinds, fmt.Sprintf("%s %s", thousands(int64(n)), k))
	}
	sort.Strings(kinds)
	if reused {
		fmt.Printf("search data: reused from %s (same sizes): load not measured; data generated in %.1f s\n", dir, loaded.Seconds())
	} else {
		fmt.Printf("search data: generated and loaded in %.1f s (members %.1f s, posts %.1f s); posts: %s; vocabulary %s words (Zipf)\n",
			loaded.Seconds(), membersLoaded.Seconds(), (loaded - membersLoaded).Seconds(), strings.Join(kinds, ", "), thousands(int64(len(w.words))))
		fmt.Printf("    CPU of generating, loading and settling: %.1f s (%.2f ms a document)\n", loadCPU.Seconds(), ms(loadCPU)/float64(nMembers+nPosts))
	}
	fmt.Printf("search index settled (persisted and merged) in %.1f s: members %d segments %s, posts %d segments %s\n",
		settled.Seconds(), states["members"].Segments, mib(states["members"].DiskBytes), states["posts"].Segments, mib(states["posts"].DiskBytes))
	if selected["search-index"] {
		fmt.Printf("%-48s %8.0f docs/s  (%s members in %.1f s of Upsert)\n",
			fmt.Sprintf("search-index, members, batches of %d:", batch), mLoad.rate(), thousands(int64(mLoad.docs)), mLoad.took.Seconds())
		fmt.Printf("%-48s %8.0f docs/s  (%s posts in %.1f s of Upsert)\n",
			fmt.Sprintf("search-index, posts, batches of %d:", batch), pLoad.rate(), thousands(int64(pLoad.docs)), pLoad.took.Seconds())
	}

	var verdicts []string
	if selected["search-members"] {
		// Each benchmark draws its queries from a stream of its own, the
		// same whichever others run.
		qrng := rand.New(rand.NewPCG(searchSeed, 2))
		qs := make([]searchQuery, *searchWarmupN+*searchQueriesN)
		for i := range qs {
			qs[i] = w.memberQuery(qrng, i)
		}
		r, err := timeSearches(ctx, qs, *searchWarmupN, func(ctx context.Context, q search.Query) (int, error) {
			res, err := store.Members().Search(ctx, q)
			return res.Total, err
		})
		if err != nil {
			return fmt.Errorf("search-members: %w", err)
		}
		r.print(fmt.Sprintf("search-members (%s members, limit %d):", thousands(int64(nMembers)), memberLimit))
		verdicts = append(verdicts, fmt.Sprintf("members p99 <= 20 ms (%s)", verdict(r.all.p(99) <= 20*time.Millisecond)))
	}
	if selected["search-posts"] {
		qrng := rand.New(rand.NewPCG(searchSeed, 3))
		qs := make([]searchQuery, *searchWarmupN+*searchQueriesN)
		for i := range qs {
			qs[i] = w.postQuery(qrng, i)
		}
		r, err := timeSearches(ctx, qs, *searchWarmupN, func(ctx context.Context, q search.Query) (int, error) {
			res, err := store.Posts().Search(ctx, q)
			return res.Total, err
		})
		if err != nil {
			return fmt.Errorf("search-posts: %w", err)
		}
		r.print(fmt.Sprintf("search-posts (%s posts, limit %d):", thousands(int64(nPosts)), postLimit))
		verdicts = append(verdicts, fmt.Sprintf("posts p99 <= 50 ms (%s)", verdict(r.all.p(99) <= 50*time.Millisecond)))
	}
	if len(verdicts) > 0 {
		fmt.Printf("search targets: %s\n", strings.Join(verdicts, ", "))
	}
	return nil
}

// loadStat adds up the Upsert calls of a load.
type loadStat struct {
	docs int
	took time.Duration
}

func (l *loadStat) add(n int, d time.Duration) { l.docs += n; l.took += d }

func (l loadStat) rate() float64 {
	if l.took <= 0 {
		return 0
	}
	return float64(l.docs) / l.took.Seconds()
}

func mib(b int64) string { return fmt.Sprintf("(%.0f MiB)", float64(b)/(1<<20)) }

// holds reports whether store already has the benchmark's documents.
func (w *searchWorld) holds(ctx context.Context, store search.Store, members, posts int) bool {
	m, err := store.Members().Search(ctx, search.Query{Limit: 1})
	if err != nil || m.Total != members {
		return false
	}
	p, err := store.Posts().Search(ctx, search.Query{Limit: 1, Filter: search.Filter{search.ReadableBy("bench", w.channels...)}})
	return err == nil && p.Total == posts
}

// searchQuery is one query and the kind it is counted under.
type searchQuery struct {
	kind string
	q    search.Query
}

// searchResult is the latencies of a run, overall and by kind of query.
type searchResult struct {
	all     result
	byKind  map[string]result
	kinds   []string
	nothing int // queries that found nothing
	totals  int64
	warm    int
}

// timeSearches runs the queries one after the other, the first warm of
// them untimed, and profiles the timed ones when -search-cpuprofile names
// a file.
func timeSearches(ctx context.Context, qs []searchQuery, warm int, run func(context.Context, search.Query) (int, error)) (searchResult, error) {
	for _, q := range qs[:warm] {
		if _, err := run(ctx, q.q); err != nil {
			return searchResult{}, fmt.Errorf("%q: %w", q.q.Text, err)
		}
	}
	stop, err := startProfile(*searchProfile)
	if err != nil {
		return searchResult{}, err
	}
	defer stop()
	r := searchResult{byKind: map[string]result{}, warm: warm}
	lat := make([]time.Duration, 0, len(qs)-warm)
	byKind := map[string][]time.Duration{}
	start := time.Now()
	for _, q := range qs[warm:] {
		t0 := time.Now()
		total, err := run(ctx, q.q)
		el := time.Since(t0)
		if err != nil {
			return searchResult{}, fmt.Errorf("%q: %w", q.q.Text, err)
		}
		lat = append(lat, el)
		if _, ok := byKind[q.kind]; !ok {
			r.kinds = append(r.kinds, q.kind)
		}
		byKind[q.kind] = append(byKind[q.kind], el)
		r.totals += int64(total)
		if total == 0 {
			r.nothing++
		}
	}
	if n := min(*searchSlowest, len(lat)); n > 0 {
		order := make([]int, len(lat))
		for i := range order {
			order[i] = i
		}
		sort.Slice(order, func(i, j int) bool { return lat[order[i]] > lat[order[j]] })
		for _, i := range order[:n] {
			q := qs[warm+i]
			fmt.Printf("    slow: %7.2f ms  %-9s %q\n", ms(lat[i]), q.kind, q.q.Text)
		}
	}
	r.all = newResult(lat, time.Since(start))
	for k, l := range byKind {
		r.byKind[k] = newResult(l, 0)
	}
	sort.Strings(r.kinds)
	return r, nil
}

func (r searchResult) print(label string) {
	fmt.Printf("%-48s p50 %6.2f ms  p99 %6.2f ms  mean %6.2f ms  (n=%d sequential after %d warm-up; %.1f%% found nothing; mean total %.0f)\n",
		label, ms(r.all.p(50)), ms(r.all.p(99)), ms(r.all.mean()), r.all.n(), r.warm,
		100*float64(r.nothing)/float64(r.all.n()), float64(r.totals)/float64(r.all.n()))
	var parts []string
	for _, k := range r.kinds {
		x := r.byKind[k]
		parts = append(parts, fmt.Sprintf("%s p50 %.2f p99 %.2f ms (n=%d)", k, ms(x.p(50)), ms(x.p(99)), x.n()))
	}
	fmt.Printf("    %s\n", strings.Join(parts, "; "))
}

// weighted draws indexes with probabilities proportional to weights.
type weighted struct{ cum []float64 }

// zipfWeights weighs n items as 1/(i+1)^s: a few large, many small.
func zipfWeights(n int, s float64) *weighted {
	w := &weighted{cum: make([]float64, n)}
	sum := 0.0
	for i := range n {
		sum += 1 / math.Pow(float64(i+1), s)
		w.cum[i] = sum
	}
	return w
}

func (w *weighted) pick(rng *rand.Rand) int {
	x := rng.Float64() * w.cum[len(w.cum)-1]
	return sort.SearchFloat64s(w.cum, x)
}

// distinct draws k different indexes.
func (w *weighted) distinct(rng *rand.Rand, k int) []int {
	k = min(k, len(w.cum))
	seen := map[int]bool{}
	var out []int
	for len(out) < k {
		if i := w.pick(rng); !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	return out
}

// uuid formats 16 random bytes as a UUID, the shape of Agora's ids.
func uuid(rng *rand.Rand) string {
	a, b := rng.Uint64(), rng.Uint64()
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", a>>32, (a>>16)&0xffff, a&0xffff, b>>48, b&0xffffffffffff)
}

func newSearchWorld(rng *rand.Rand) *searchWorld {
	w := &searchWorld{
		communityW: zipfWeights(searchCommunities, 0.8),
		postForumW: zipfWeights(postForums, 0.7),
		threads:    make([][]string, postForums),
		comments:   make([][]string, postForums),
		samples:    make([][]string, postForums),
		kindCount:  map[string]int{},
		created:    time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli(),
	}
	w.seenPerForum = make([]int, postForums)
	for range searchCommunities {
		w.communities = append(w.communities, uuid(rng))
	}
	for range searchForums {
		w.forums = append(w.forums, uuid(rng))
		w.channels = append(w.channels, uuid(rng))
	}
	w.words = vocabulary(rng)
	w.zipf = rand.NewZipf(rng, 1.1, 2, uint64(len(w.words)-1))
	w.tags = contentWords[:80]
	return w
}

// makeMembers makes n members: a name from the lists, a job and a company,
// one to three communities (the larger ones more often) and one to three
// forums in each.
func (w *searchWorld) makeMembers(rng *rand.Rand, n int) {
	w.members = make([]search.Member, 0, n)
	w.byCommunity = make([][]int, searchCommunities)
	for i := range n {
		first, last := firstNames[rng.IntN(len(firstNames))], lastNames[rng.IntN(len(lastNames))]
		company := companies[rng.IntN(len(companies))]
		k := 1
		if x := rng.Float64(); x < 0.1 {
			k = 3
		} else if x < 0.3 {
			k = 2
		}
		m := search.Member{
			ID: uuid(rng), UserID: uuid(rng), FirstName: first, LastName: last, FullName: first + " " + last,
			Email:    fmt.Sprintf("%s.%s%d@%s.com", strings.ToLower(first), strings.ToLower(last), rng.IntN(100), strings.ToLower(company)),
			JobTitle: jobTitles[rng.IntN(len(jobTitles))], Company: company,
			SortName: strings.ToLower(last + " " + first),
		}
		orgs := map[string]bool{}
		for _, c := range w.communityW.distinct(rng, k) {
			m.CommunityIDs = append(m.CommunityIDs, w.communities[c])
			if org := fmt.Sprintf("org-%d", c%10); !orgs[org] {
				orgs[org] = true
				m.OrganizationIDs = append(m.OrganizationIDs, org)
			}
			w.byCommunity[c] = append(w.byCommunity[c], i)
			for _, f := range rng.Perm(searchForums / searchCommunities)[:1+rng.IntN(3)] {
				m.ForumIDs = append(m.ForumIDs, w.forums[c+f*searchCommunities])
			}
		}
		switch x := rng.Float64(); {
		case x < 0.01:
			m.AdminOf = []string{m.CommunityIDs[0], m.ForumIDs[0]}
		case x < 0.04:
			m.ExpertIn = []string{m.ForumIDs[0]}
		}
		w.members = append(w.members, m)
		w.authors = append(w.authors, m.UserID)
	}
}

// makePosts makes the next n posts: a forum (some much busier than
// others), a kind (threads, questions, comments on a recent thread of the
// forum, replies to a recent comment), 10 to 60 words drawn from the
// vocabulary by a Zipf law, and now and then hashtags.
func (w *searchWorld) makePosts(rng *rand.Rand, n int) []search.Post {
	out := make([]search.Post, 0, n)
	for range n {
		f := w.postForumW.pick(rng)
		p := search.Post{
			ID: uuid(rng), ChannelID: w.channels[f], ForumID: w.forums[f], CommunityID: w.communities[f%searchCommunities],
			AuthorID: w.authors[rng.IntN(len(w.authors))], CreatedAt: w.created,
		}
		w.created += int64(1 + rng.IntN(60_000))
		switch x := rng.Float64(); {
		case x < 0.45 && len(w.threads[f]) > 0:
			p.Kind = "comment"
			p.ThreadID = w.threads[f][rng.IntN(len(w.threads[f]))]
			p.ParentID = p.ThreadID
			w.comments[f] = recent(w.comments[f], p.ID+" "+p.ThreadID)
		case x < 0.67 && len(w.comments[f]) > 0:
			p.Kind = "reply"
			c := strings.Fields(w.comments[f][rng.IntN(len(w.comments[f]))])
			p.ParentID, p.ThreadID = c[0], c[1]
		case x < 0.75:
			p.Kind = "question"
			p.ThreadID = p.ID
			w.threads[f] = recent(w.threads[f], p.ID)
		default:
			p.Kind = "post"
			p.ThreadID = p.ID
			w.threads[f] = recent(w.threads[f], p.ID)
		}
		var b strings.Builder
		nw := 10 + rng.IntN(51)
		for i := range nw {
			word := w.words[w.zipf.Uint64()]
			if i == 0 {
				word = strings.ToUpper(word[:1]) + word[1:]
			} else {
				b.WriteByte(' ')
			}
			b.WriteString(word)
			if i < nw-1 && rng.IntN(12) == 0 {
				b.WriteByte(',')
			}
		}
		if p.Kind == "question" {
			b.WriteByte('?')
		} else {
			b.WriteByte('.')
		}
		if p.ThreadID == p.ID && rng.IntN(6) == 0 {
			for _, t := range rng.Perm(len(w.tags))[:1+rng.IntN(2)] {
				p.Hashtags = append(p.Hashtags, w.tags[t])
				b.WriteString(" #" + w.tags[t])
			}
		}
		p.Text = b.String()
		w.kindCount[p.Kind]++
		// Reservoir sampling keeps a uniform sample of each forum's posts.
		w.seenPerForum[f]++
		if len(w.samples[f]) < sampleSize {
			w.samples[f] = append(w.samples[f], p.Text)
		} else if j := rng.IntN(w.seenPerForum[f]); j < sampleSize {
			w.samples[f][j] = p.Text
		}
		out = append(out, p)
	}
	return out
}

// recent keeps the last 32 ids of a list.
func recent(l []string, id string) []string {
	if len(l) >= 32 {
		l = l[1:]
	}
	return append(l, id)
}

// memberQuery is what the member dialog sends as someone types a member of
// a community: four in ten a prefix of the first or last name (1 to 6
// letters), three a first name and the start of the last ("ada love"),
// three a name with one typo in a word of 5 letters or more.
func (w *searchWorld) memberQuery(rng *rand.Rand, i int) searchQuery {
	c := w.communityW.pick(rng)
	for len(w.byCommunity[c]) == 0 {
		c = w.communityW.pick(rng)
	}
	m := w.members[w.byCommunity[c][rng.IntN(len(w.byCommunity[c]))]]
	first, last := strings.ToLower(m.FirstName), strings.ToLower(m.LastName)
	q := search.Query{Filter: search.Filter{search.In("communityIds", w.communities[c])}, Limit: memberLimit}
	kind := "prefix"
	switch i % 10 {
	case 0, 1, 2, 3:
		name := first
		if rng.IntN(2) == 0 {
			name = last
		}
		q.Text = name[:min(len(name), 1+rng.IntN(6))]
	case 4, 5, 6:
		kind = "full name"
		q.Text = first + " " + last[:1+rng.IntN(len(last))]
	default:
		kind = "typo"
		switch {
		case len(first) >= 5 && (len(last) < 5 || rng.IntN(2) == 0):
			q.Text = typo(rng, first)
			if rng.IntN(2) == 0 {
				q.Text += " " + last
			}
		case len(last) >= 5:
			q.Text = typo(rng, last)
			if rng.IntN(2) == 0 {
				q.Text = first + " " + q.Text
			}
		default: // both names short: the full name, typed right
			kind = "full name"
			q.Text = first + " " + last
		}
	}
	return searchQuery{kind: kind, q: q}
}

// postQuery is what the AI search sends for a user who reads 10 to 20
// forums, asked in one of them: 2 to 5 consecutive words of a post of that
// forum, a third of the time with one typo in a word of 5 letters or more.
func (w *searchWorld) postQuery(rng *rand.Rand, i int) searchQuery {
	forums := w.postForumW.distinct(rng, 10+rng.IntN(11))
	var channels []string
	for _, f := range forums {
		channels = append(channels, w.channels[f])
	}
	f := forums[rng.IntN(len(forums))]
	for len(w.samples[f]) == 0 {
		f = forums[rng.IntN(len(forums))]
	}
	misspell := i%3 == 2
	var words []string
	for try := 0; ; try++ {
		text := w.samples[f][rng.IntN(len(w.samples[f]))]
		all := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		n := min(len(all), 2+rng.IntN(4))
		at := rng.IntN(len(all) - n + 1)
		words = append([]string{}, all[at:at+n]...)
		if !misspell {
			break
		}
		var long []int
		for j, x := range words {
			if len(x) >= 5 {
				long = append(long, j)
			}
		}
		if len(long) > 0 {
			j := long[rng.IntN(len(long))]
			words[j] = typo(rng, words[j])
			break
		}
		if try > 100 {
			misspell = false
			break
		}
	}
	kind := "exact"
	if misspell {
		kind = "typo"
	}
	return searchQuery{kind: kind, q: search.Query{
		Text:   strings.Join(words, " "),
		Filter: search.Filter{search.ReadableBy(uuid(rng), channels...), search.In("forumId", w.forums[f])},
		Limit:  postLimit,
	}}
}

// typo makes one edit (a letter changed, dropped or added) anywhere but in
// the first letter. A word of five letters keeps five: a four-letter word
// is promised no typo.
func typo(rng *rand.Rand, word string) string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	r := []rune(word)
	edit := rng.IntN(3)
	if edit == 1 && len(r) <= 5 {
		edit = 0
	}
	switch edit {
	case 0:
		at := 1 + rng.IntN(len(r)-1)
		c := r[at]
		for c == r[at] {
			c = rune(letters[rng.IntN(len(letters))])
		}
		r[at] = c
	case 1:
		at := 1 + rng.IntN(len(r)-1)
		r = append(r[:at], r[at+1:]...)
	default:
		at := 1 + rng.IntN(len(r))
		c := rune(letters[rng.IntN(len(letters))])
		r = append(r[:at], append([]rune{c}, r[at:]...)...)
	}
	return string(r)
}
