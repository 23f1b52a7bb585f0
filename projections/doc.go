// Package projections runs the read-side projections of Agora's change
// stream: each projection is a kafka-go consumer group over the topics of
// the tables it reacts to (agora.public.<table>), fed by the CDC relay or by
// Debezium, and keeps one target (a search index, the warehouse, the
// realtime hub, a table) up to date.
//
// The runner (Run) decodes each message into a typed change (package
// change), dispatches it to the projection, and commits the offset only
// after the projection returned, so delivery is at least once and every
// projection is idempotent: it upserts by primary key and ignores a change
// whose change.Position is not newer than what it holds. A failing change
// is retried with backoff; one that keeps failing (or cannot be decoded)
// goes to the projection's dead-letter topic with the error, and the runner
// goes on. Rebuild re-reads the projection's tables from a Postgres
// snapshot into a fresh target and moves the consumer group to exactly
// where that snapshot ends. Consumer lag and apply latency are Prometheus
// metrics (NewMetrics).
//
// One package per projection lives beside this one (search, analytics,
// realtime, notifications, delivery, reminders).
package projections
