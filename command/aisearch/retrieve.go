package aisearch

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"agora/search"
	"agora/search/answer"
)

// retrieve finds the posts an answer is written from: the best
// RetrieveLimit posts of the forum that the asker may read (the channels
// given, or posts naming the asker as a reader), for the question. A
// Meet Up's minutes come back as their post.
//
// A follow-up ("Who did he mention in that post?") rarely names its
// subject: it carries the conversation. The posts the previous answer
// cited, and their comments, come first (conversationSources), then the
// posts found for the question with the previous question's words added.
// Both pass the same filter: a post the asker may no longer read is not
// one of them.
func (s *Service) retrieve(ctx context.Context, userID, forumID string, channels []string, question string, history []answer.Turn) ([]search.Post, error) {
	filter := sourceFilter(userID, forumID, channels)
	var earlier []search.Post
	if n := len(history); n > 0 {
		last := history[n-1]
		threads, err := s.threadsOf(ctx, last.Cited)
		if err != nil {
			return nil, err
		}
		if earlier, err = conversationSources(ctx, s.posts, filter, threads, last.Cited); err != nil {
			return nil, err
		}
		question = strings.Join(append([]string{question}, answer.QueryTerms(last.Question)...), " ")
	}
	hits, err := findSources(ctx, s.posts, filter, question)
	if err != nil {
		return nil, err
	}
	return s.meetupPosts(ctx, mergeSources(earlier, hits))
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

// findSources searches the posts under the filter for the question.
//
// The search store matches a post only when it holds every word of the
// text, which a question in plain words rarely meets ("how do we deploy
// the migrations?"). So the question is tried as typed, then without its
// stopwords (as asked, then longest word first: the store matches the last
// word as a prefix too, and the shortest word is the likeliest stem, as
// "deploy" of "deploying"), then with only its longest words (three, two,
// then one: the longest are the rarest and say most of what is asked),
// then each other word alone; at most maxQueries queries. The first query
// that finds anything wins.
func findSources(ctx context.Context, posts search.Index[search.Post], filter search.Filter, question string) ([]search.Post, error) {
	for _, text := range queries(question) {
		res, err := posts.Search(ctx, search.Query{Text: text, Filter: filter, Limit: RetrieveLimit})
		if err != nil {
			return nil, fmt.Errorf("aisearch: retrieve: %w", err)
		}
		if len(res.Hits) > 0 {
			return res.Hits, nil
		}
	}
	return []search.Post{}, nil
}

// queries are the texts retrieve tries, in order, without repeats.
func queries(question string) []string {
	var out []string
	add := func(words ...string) {
		q := strings.Join(words, " ")
		if strings.TrimSpace(q) == "" {
			return
		}
		for _, o := range out {
			if o == q {
				return
			}
		}
		out = append(out, q)
	}
	add(strings.TrimSpace(question))
	terms := answer.QueryTerms(question)
	add(terms...)
	// Longest first; a stable sort keeps the question's order among equals.
	longest := append([]string(nil), terms...)
	sort.SliceStable(longest, func(i, j int) bool {
		return utf8.RuneCountInString(longest[i]) > utf8.RuneCountInString(longest[j])
	})
	add(longest...)
	for k := min(3, len(longest)-1); k >= 1; k-- {
		add(longest[:k]...)
	}
	for _, w := range longest[min(1, len(longest)):] {
		add(w)
	}
	if len(out) > maxQueries {
		out = out[:maxQueries]
	}
	return out
}

// maxQueries bounds the search store queries of one retrieval.
const maxQueries = 8
