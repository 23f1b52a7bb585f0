// Package analytics holds the insights warehouse on ClickHouse: its
// migrations (migrations/*.sql, applied in order once each by Migrate) and
// the connection helper Open; README.md documents the tables for analysts.
// It is fed only by the analytics projection (projections/insights) and
// read by the reports (query/insights), and declares the vocabulary the two
// share: the kinds of facts (Kinds), spelled once here, below both.
//
// The SQL keeps to what ClickHouse 18.16 (Debian's package, which agora dev
// and the tests run) and current ClickHouse both accept; see
// migrations/README.md.
package analytics
