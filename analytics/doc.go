// Package analytics holds the insights warehouse on ClickHouse: its
// migrations (migrations/*.sql, applied in order once each by Migrate), the
// connection helper Open, and, to come, the report queries and the
// analysts' documentation. It is fed only by the analytics projection.
//
// The SQL keeps to what ClickHouse 18.16 (Debian's package, which agora dev
// and the tests run) and current ClickHouse both accept; see
// migrations/README.md.
package analytics
