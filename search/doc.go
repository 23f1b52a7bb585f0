// Package search will hold the search read store behind one port
// (Meilisearch, or the embedded Bleve engine), member, hashtag, peer and post
// search, and AI search streamed as NDJSON (the search issue).
package search
