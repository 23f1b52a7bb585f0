// Package projections will hold the change-event decoder, the consumer
// runner with checkpoints and rebuild, and one package per projection
// (search, analytics, realtime, notifications, reminders). Projections are
// idempotent kafka-go consumer groups fed by the CDC relay or Debezium; see
// ARCHITECTURE.md. The pipeline issue builds them.
package projections
