package aisearch

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"agora/search"
	"agora/search/answer"
	"agora/search/rank"
	"agora/search/words"
)

// retrieve finds the posts an answer is written from: the best
// RetrieveLimit passages (threads, comments, replies, Meet Up minutes) of
// the forum that the asker may read (the channels given, or posts naming
// the asker as a reader), for the question. A Meet Up's minutes come back
// as their post.
//
// Candidates are the posts holding any meaningful word of the question
// (findSources), ranked by package rank; the comments of the best threads
// join them, as a comment often holds the answer to the thread's question
// in words of its own.
//
// A follow-up ("Who did he mention in that post?") rarely names its
// subject: it carries the conversation. The posts the previous answer
// cited, and their comments, come first (conversationSources), then the
// posts found for the question with the previous question's words added,
// weighted less. Both pass the same filter: a post the asker may no
// longer read is not one of them.
//
// It also counts the posts under that filter holding each word of the
// question (frequencies), for the answer to weigh them, and says which
// thread, if any, the keyword and the meaning rankings both put first.
func (s *Service) retrieve(ctx context.Context, userID, forumID string, channels []string, question string, history []answer.Turn) (retrieved, error) {
	filter := sourceFilter(userID, forumID, channels)
	q := rank.Question{Text: question, Now: s.now()}
	var earlier []search.Post
	if n := len(history); n > 0 {
		last := history[n-1]
		threads, err := s.threadsOf(ctx, last.Cited)
		if err != nil {
			return retrieved{}, err
		}
		if earlier, err = conversationSources(ctx, s.posts, filter, threads, last.Cited); err != nil {
			return retrieved{}, err
		}
		q.Earlier = last.Question
	}
	found, err := findSources(ctx, s.posts, s.embed, filter, q)
	if err != nil {
		return retrieved{}, err
	}
	if found.freq, err = frequencies(ctx, s.posts, filter, q); err != nil {
		return retrieved{}, err
	}
	found.posts, err = s.meetupPosts(ctx, mergeSources(earlier, found.posts))
	return found, err
}

// retrieved is what retrieve found for a question.
type retrieved struct {
	posts []search.Post
	freq  *answer.Frequencies
	// agreed is the thread that both the keyword ranking and the posts
	// nearest the question in meaning put first, or "": two rankings
	// that read the question differently agreeing on a thread say it is
	// the question's subject even when its words are not the question's
	// (answer.Request.Agreed).
	agreed string
	// hybrid is set when there were two rankings to agree.
	hybrid bool
}

// frequencies counts the posts under the filter, and those holding each
// word of the question and of the earlier one, as the store matches a
// word (its forms, a typo): one count each, which the store answers from
// its index without reading the posts.
func frequencies(ctx context.Context, posts search.Index[search.Post], filter search.Filter, q rank.Question) (*answer.Frequencies, error) {
	count := func(text string) (int, error) {
		res, err := posts.Search(ctx, search.Query{Text: text, Filter: filter, Limit: 1})
		if err != nil {
			return 0, fmt.Errorf("aisearch: frequencies: %w", err)
		}
		return res.Total, nil
	}
	all, err := count("")
	if err != nil {
		return nil, err
	}
	out := &answer.Frequencies{Posts: all, Words: map[string]int{}}
	for _, w := range words.Terms(q.Text + " " + q.Earlier) {
		if out.Words[w], err = count(w); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// conversationSources returns the documents of the given threads that
// pass the filter: the cited ones first, in the order given, then their
// posts' other comments, oldest first; at most RetrieveLimit/2, so that
// the question's own hits keep room.
func conversationSources(ctx context.Context, posts search.Index[search.Post], filter search.Filter, threads, cited []string) ([]search.Post, error) {
	if len(threads) == 0 {
		return nil, nil
	}
	res, err := posts.Search(ctx, search.Query{
		Filter: append(append(search.Filter{}, filter...), search.In("threadId", threads...)),
		Sort:   []search.Sort{{Field: "createdAt"}}, Limit: 100,
	})
	if err != nil {
		return nil, fmt.Errorf("aisearch: conversation: %w", err)
	}
	rank := map[string]int{}
	for i, id := range cited {
		if _, ok := rank[id]; !ok {
			rank[id] = i
		}
	}
	out := res.Hits
	sort.SliceStable(out, func(i, j int) bool {
		ri, iok := rank[out[i].ID]
		rj, jok := rank[out[j].ID]
		if iok != jok {
			return iok
		}
		return iok && ri < rj
	})
	return out[:min(len(out), RetrieveLimit/2)], nil
}

// mergeSources is a's posts then b's, each once, at most RetrieveLimit.
func mergeSources(a, b []search.Post) []search.Post {
	out := make([]search.Post, 0, RetrieveLimit)
	seen := map[string]bool{}
	for _, p := range append(append([]search.Post{}, a...), b...) {
		if len(out) == RetrieveLimit {
			break
		}
		if !seen[p.ID] {
			seen[p.ID] = true
			out = append(out, p)
		}
	}
	return out
}

// sourceFilter is what a source must pass: a post of the forum that the
// asker may read, and no shared AI chat. A shared chat holds earlier
// questions and answers, not what members wrote, so as a source it would
// answer a question with itself; the posts it cites are sources of their
// own. The forum's post index keeps shared chats (they are posts of the
// feed); only the AI search leaves them out.
func sourceFilter(userID, forumID string, channels []string) search.Filter {
	return search.Filter{search.In("forumId", forumID), search.ReadableBy(userID, channels...), search.NotIn("kind", KindSharedChat)}
}

// findSources ranks the posts under the filter for the question: the
// candidateLimit that the store finds for any of its words (and the
// earlier question's), ranked by package rank, then the comments of the
// expandThreads best threads ranked with them, a comment inheriting a
// share of its thread's score. With an embedder, the nearestLimit posts
// nearest the question in meaning are candidates too, and the keyword
// ranking is fused with theirs (rank.Fuse): "when do teams retire
// functionality nobody uses?" shares no word with "we kill features that
// miss their adoption target". At most perThread passages of one thread
// are kept, so that the answer can draw on several. The thread first in
// both the keyword ranking and the nearest posts is retrieved.agreed.
func findSources(ctx context.Context, posts search.Index[search.Post], embed search.Embedder, filter search.Filter, q rank.Question) (retrieved, error) {
	terms := words.Terms(q.Text + " " + q.Earlier)
	if len(terms) == 0 {
		return retrieved{posts: []search.Post{}}, nil
	}
	res, err := posts.Search(ctx, search.Query{Text: strings.Join(terms, " "), AnyWord: true, Filter: filter, Limit: candidateLimit})
	if err != nil {
		return retrieved{}, fmt.Errorf("aisearch: retrieve: %w", err)
	}
	nearest, err := nearestPosts(ctx, posts, embed, filter, q)
	if err != nil {
		return retrieved{}, err
	}
	ranked := rank.Passages(q, append(res.Hits, nearest...))
	if ranked, err = withComments(ctx, posts, filter, q, ranked); err != nil {
		return retrieved{}, err
	}
	keyword := ranked
	agreed := ""
	if embed != nil {
		ranked = rank.Fuse(ranked, nearest)
		if len(keyword) > 0 && len(nearest) > 0 && keyword[0].Post.Thread() == nearest[0].Thread() {
			agreed = nearest[0].Thread()
		}
	}
	out := make([]search.Post, 0, RetrieveLimit)
	per := map[string]int{}
	for _, r := range ranked {
		if len(out) == RetrieveLimit {
			break
		}
		if per[r.Post.Thread()] == perThread {
			continue
		}
		per[r.Post.Thread()]++
		out = append(out, r.Post)
	}
	return retrieved{posts: withAnswers(out, keyword, per), agreed: agreed, hybrid: embed != nil}, nil
}

// withAnswers makes room, at the end of the sources, for the answers to
// the first source when it is a member's question: its thread's other
// passages in the keyword ranking's order (those holding most of the
// question's words first), up to perThread of the thread. A question's
// own sentences answer nothing, and the fused ranking can leave its
// answers out for posts nearer the question only in meaning.
func withAnswers(out []search.Post, keyword []rank.Scored, per map[string]int) []search.Post {
	if len(out) == 0 || out[0].Kind != kindQuestion {
		return out
	}
	thread := out[0].Thread()
	in := map[string]bool{}
	for _, p := range out {
		in[p.ID] = true
	}
	var add []search.Post
	for _, r := range keyword {
		if r.Post.Thread() == thread && !in[r.Post.ID] && per[thread]+len(add) < perThread {
			add = append(add, r.Post)
		}
	}
	keep := min(len(out), RetrieveLimit-len(add))
	return append(out[:keep:keep], add...)
}

// nearestPosts are the nearestLimit posts under the filter nearest the
// question (with a follow-up's earlier question) in meaning; none without
// an embedder.
func nearestPosts(ctx context.Context, posts search.Index[search.Post], embed search.Embedder, filter search.Filter, q rank.Question) ([]search.Post, error) {
	if embed == nil {
		return nil, nil
	}
	vs, err := embed.Embed(ctx, []string{strings.TrimSpace(q.Text + " " + q.Earlier)})
	if err != nil {
		return nil, fmt.Errorf("aisearch: embed the question: %w", err)
	}
	if len(vs) != 1 {
		return nil, fmt.Errorf("aisearch: embed the question: %d vectors for one text", len(vs))
	}
	res, err := posts.Search(ctx, search.Query{Vector: vs[0], Filter: filter, Limit: nearestLimit})
	if err != nil {
		return nil, fmt.Errorf("aisearch: nearest posts: %w", err)
	}
	return res.Hits, nil
}

// withComments adds to the ranked passages the other passages of the
// expandThreads best threads, each scored as itself plus inherited of its
// thread's best, and ranks them all again.
func withComments(ctx context.Context, posts search.Index[search.Post], filter search.Filter, q rank.Question, ranked []rank.Scored) ([]rank.Scored, error) {
	best := map[string]float64{}
	var threads []string
	have := map[string]bool{}
	for _, r := range ranked {
		have[r.Post.ID] = true
		t := r.Post.Thread()
		if _, ok := best[t]; !ok && len(threads) < expandThreads {
			best[t] = r.Score
			threads = append(threads, t)
		}
	}
	if len(threads) == 0 {
		return ranked, nil
	}
	res, err := posts.Search(ctx, search.Query{
		Filter: append(append(search.Filter{}, filter...), search.In("threadId", threads...)),
		Sort:   []search.Sort{{Field: "createdAt"}}, Limit: 100,
	})
	if err != nil {
		return nil, fmt.Errorf("aisearch: comments: %w", err)
	}
	own := map[string]float64{}
	for _, r := range rank.Passages(q, res.Hits) {
		own[r.Post.ID] = r.Score
	}
	for _, p := range res.Hits {
		if have[p.ID] {
			continue
		}
		ranked = append(ranked, rank.Scored{Post: p, Score: own[p.ID] + inherited*best[p.Thread()]})
	}
	sort.SliceStable(ranked, func(i, j int) bool { return ranked[i].Score > ranked[j].Score })
	return ranked, nil
}

// kindQuestion is the Kind of a thread a member opened as a question
// (command/feed's thread type).
const kindQuestion = "question"

// Retrieval's bounds: the candidates asked of the store by word and by
// meaning, the threads whose
// comments join them, the share of a thread's score its comments inherit,
// and the passages of one thread an answer draws on.
const (
	candidateLimit = 60
	nearestLimit   = 30
	expandThreads  = 3
	inherited      = 0.5
	perThread      = 3
)
