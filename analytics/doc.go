// Package analytics will hold the ClickHouse schema and migrations of the
// insights warehouse, the report queries and the analysts' documentation.
// It is fed only by the analytics projection (the insights issue).
package analytics
