// Package search is the search read store: member, hashtag, post and peer
// search behind one port (Store, with an Index per kind of document), and
// later the AI search that answers from a forum's posts.
//
// Two adapters implement the port. OpenMeili speaks to Meilisearch (chosen
// when MEILI_URL is set): it creates the indexes with their searchable,
// filterable and sortable attributes, ranking rules and typo tolerance, and
// enqueues writes as Meilisearch tasks that Index.Wait awaits. OpenEmbedded
// keeps Bleve indexes on disk (BM25 scoring, typo and prefix matching) for
// agora dev, tests and single-machine installs. Open picks one from the
// configuration. Both are held to the contract suite in search/searchtest.
//
// Only projections write here, idempotently: Upsert replaces a document by
// id, Delete and DeleteWhere remove, Rebuild drops an index and recreates it
// empty for a replay from a Postgres snapshot. Reads filter with Filter
// (an AND of ORs of "field has one of these values"); a post search must
// carry a ReadableBy clause, so a search that forgets permissions fails
// (ErrUnscoped) instead of leaking a post the asker may not read.
//
// Posts may carry a vector (Post.Vector, from an Embedder): a Query.Vector
// then finds the posts that pass the filter nearest first, by cosine
// similarity. Meilisearch keeps them as user-provided embeddings; the
// embedded engine beside each document and in memory, in a
// nearest-neighbour graph (embedded_vectors.go, search/hnsw).
//
// Where Meilisearch's rules differ from the port's, the adapter bridges
// them (meili.go): a post without a vector says so (_vectors null), or a
// userProvided embedder fails its whole batch and an edit keeps the old
// vector; a vector search before any embedder answers nothing rather than
// a 400; AnyWord is a search a word, as no matching strategy keeps a
// document with any word; a text of more than ten words is checked in
// groups; maxTotalHits lifts the 1,000-hit bound. searchtest.FakeMeili
// implements those rules, and the contract suite runs on it.
package search
