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
// whose change.Position is not newer than what it holds. A change whose
// target is unavailable (IsUnavailable: down, restarting, overloaded) is
// retried with backoff for as long as it takes, nothing after it committed;
// a poison change (Permanent, or not a change event) goes to the
// projection's dead-letter topic at once, and one failing otherwise after
// MaxAttempts, and the runner goes on. Each projection's state (healthy,
// retrying, stalled) and lag are kept in a Health, which /readyz and
// /metrics show. Replay applies the dead letters again after a fix. Rebuild re-reads the projection's tables from a Postgres
// snapshot into a fresh target and moves the consumer group to exactly
// where that snapshot ends. Consumer lag, apply latency and the states are
// Prometheus metrics (NewMetrics).
//
// One package per projection lives beside this one (search, analytics,
// realtime, notifications, delivery, reminders).
package projections
