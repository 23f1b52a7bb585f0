//go:build !race

package hnsw_test

const underRace = false
