//go:build race

package hnsw_test

// underRace: the race detector runs code 5–10× slower, and make test runs
// every test under it; the recall tests then check fewer vectors (their
// concurrency is tested at full size by the tests made for it).
const underRace = true
