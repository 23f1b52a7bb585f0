// Package rank orders the candidate posts of an AI search answer: the
// threads, comments, replies and Meet Up minutes the search store found
// for any word of the question, each a passage of its own.
//
// The store's own order is a keyword engine's (BM25 in the embedded one,
// ranking rules in Meilisearch) over exact words, typos and prefixes. A
// question in plain words needs more of the text than that: the forms of
// a word ("prioritizing" and "prioritize" share a stem), a misspelt word
// read as the candidates' nearest word, the question's words side by side
// in a post (a phrase), the recency of what was said, and for a
// follow-up the earlier question's words, weighted less. Passages reads
// every candidate the same way, so the two adapters rank alike.
package rank

import (
	"math"
	"sort"
	"time"

	"agora/search"
	"agora/search/words"
)

// Question is what the candidates are ranked for.
type Question struct {
	// Text is the question as asked.
	Text string
	// Earlier is the previous question of a follow-up ("Who did he mention
	// in that post?" is about what it asked), or empty.
	Earlier string
	// Now dates the recency signal.
	Now time.Time
}

// Scored is a candidate with its score.
type Scored struct {
	Post  search.Post
	Score float64
	// Covers is the share of the question's words (by weight) the
	// passage holds.
	Covers float64
}

// Weights of the signals. BM25's k1 and b are the usual ones; an earlier
// question's word counts earlierWeight of one of this question; two
// question words side by side add phraseWeight of their mean weight; a
// hashtag counts as hashtagWeight occurrences of its word; a passage of
// today gains recencyWeight of its score, one of recencyDays ago a third
// of that.
const (
	k1            = 1.2
	b             = 0.75
	earlierWeight = 0.4
	phraseWeight  = 0.5
	hashtagWeight = 2
	recencyWeight = 0.15
	recencyDays   = 60
)

// passage is a candidate read for scoring: its stems in order, without
// stopwords, and how often each occurs.
type passage struct {
	stems []string
	tf    map[string]float64
}

func read(p search.Post) passage {
	r := passage{tf: map[string]float64{}}
	for _, w := range words.Split(p.Text) {
		if words.IsStop(w) {
			continue
		}
		s := words.Stem(w)
		r.stems = append(r.stems, s)
		r.tf[s]++
	}
	for _, h := range p.Hashtags {
		for _, w := range words.Split(h) {
			r.tf[words.Stem(w)] += hashtagWeight
		}
	}
	return r
}

// term is a question word as the candidates read it, with its weight.
type term struct {
	stem   string
	weight float64
}

// Passages scores the candidates for the question and returns those that
// hold any of its words, best first; ties keep the candidates' order.
func Passages(q Question, cands []search.Post) []Scored {
	if len(cands) == 0 {
		return nil
	}
	read, vocab := readAll(cands)
	df := map[string]int{}
	total := 0.0
	for _, p := range read {
		for s := range p.tf {
			df[s]++
		}
		total += float64(len(p.stems))
	}
	avg := math.Max(total/float64(len(read)), 1)
	terms := questionTerms(q, df, vocab)
	n := float64(len(cands))
	idf := func(s string) float64 {
		d := float64(df[s])
		return math.Log(1 + (n-d+0.5)/(d+0.5))
	}
	var out []Scored
	for i, p := range read {
		score, matched, asked, held, all := 0.0, 0, 0, 0.0, 0.0
		for _, t := range terms {
			if t.weight == 1 {
				asked++
				all += idf(t.stem)
			}
			tf := p.tf[t.stem]
			if tf == 0 {
				continue
			}
			if t.weight == 1 {
				matched++
				held += idf(t.stem)
			}
			dl := float64(len(p.stems))
			score += t.weight * idf(t.stem) * tf * (k1 + 1) / (tf + k1*(1-b+b*dl/avg))
		}
		if score == 0 {
			continue
		}
		score += phraseWeight * phrases(terms, p.stems, idf)
		// A passage holding more of the question's own words says more
		// about it than one repeating a single word.
		if asked > 0 {
			score *= math.Sqrt(float64(max(matched, 1)) / float64(asked))
		}
		score *= 1 + recencyWeight*recency(q.Now, cands[i].CreatedAt)
		covers := 0.0
		if all > 0 {
			covers = held / all
		}
		out = append(out, Scored{Post: cands[i], Score: score, Covers: covers})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}

// readAll reads the candidates, and gathers their words with the number
// of candidates holding each, for reading a misspelt question word.
func readAll(cands []search.Post) ([]passage, map[string]int) {
	out := make([]passage, len(cands))
	vocab := map[string]int{}
	for i, p := range cands {
		out[i] = read(p)
		seen := map[string]bool{}
		for _, w := range words.Split(p.Text) {
			if !seen[w] && !words.IsStop(w) {
				seen[w] = true
				vocab[w]++
			}
		}
	}
	return out, vocab
}

// questionTerms are the question's stems, then the earlier question's that
// it does not hold. A stem no candidate holds is read as the candidates'
// nearest one within a typo or two ("prioritisaton" as "priorit…"), the
// way the store matched it.
func questionTerms(q Question, df, vocab map[string]int) []term {
	var out []term
	seen := map[string]bool{}
	add := func(text string, weight float64) {
		for _, s := range words.Stems(text, df, vocab, seen) {
			out = append(out, term{stem: s, weight: weight})
		}
	}
	add(q.Text, 1)
	add(q.Earlier, earlierWeight)
	return out
}

// phrases sums, over the question's consecutive words that stand side by
// side in the passage (in either order), their mean weight.
func phrases(terms []term, stems []string, idf func(string) float64) float64 {
	if len(terms) < 2 {
		return 0
	}
	next := map[[2]string]bool{}
	for i := 1; i < len(stems); i++ {
		next[[2]string{stems[i-1], stems[i]}] = true
		next[[2]string{stems[i], stems[i-1]}] = true
	}
	sum := 0.0
	for i := 1; i < len(terms); i++ {
		a, c := terms[i-1], terms[i]
		if a.weight != c.weight || !next[[2]string{a.stem, c.stem}] {
			continue
		}
		sum += a.weight * (idf(a.stem) + idf(c.stem)) / 2
	}
	return sum
}

// recency is 1 for a passage written now, falling by e every recencyDays.
func recency(now time.Time, createdAt int64) float64 {
	if now.IsZero() || createdAt <= 0 {
		return 0
	}
	days := now.Sub(time.UnixMilli(createdAt)).Hours() / 24
	if days < 0 {
		days = 0
	}
	return math.Exp(-days / recencyDays)
}

// fuseK is reciprocal rank fusion's constant (Cormack et al., 2009): a
// passage's fused score is the sum over the rankings of 1/(fuseK + rank),
// so that the top of either ranking counts, and agreement counts most.
const fuseK = 60

// Fuse merges the keyword ranking with the posts nearest the question in
// meaning (best first, as the store found them by vector): reciprocal rank
// fusion, which needs no common scale between BM25 scores and cosine
// similarities. A post in one ranking only keeps that ranking's share.
//
// The nearest posts weigh more when the best keyword match holds little of
// the question: then the question is worded unlike the posts, and meaning
// is the better guide.
func Fuse(keyword []Scored, nearest []search.Post) []Scored {
	weight := 1.0
	if len(keyword) > 0 {
		weight += 1 - keyword[0].Covers
	} else {
		weight = 2
	}
	score := map[string]float64{}
	post := map[string]search.Post{}
	var order []string
	add := func(p search.Post, r int, w float64) {
		if _, ok := post[p.ID]; !ok {
			post[p.ID] = p
			order = append(order, p.ID)
		}
		score[p.ID] += w / float64(fuseK+r+1)
	}
	for r, s := range keyword {
		add(s.Post, r, 1)
	}
	for r, p := range nearest {
		add(p, r, weight)
	}
	out := make([]Scored, len(order))
	for i, id := range order {
		out[i] = Scored{Post: post[id], Score: score[id]}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}
