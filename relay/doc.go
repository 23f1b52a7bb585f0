// Package relay is Agora's built-in change-data-capture relay: it reads
// Postgres logical replication (pgoutput) from a named slot and writes one
// Kafka message per row change in the format of Debezium's Postgres
// connector, so the projections cannot tell it from Debezium on Kafka
// Connect, which a deployment may run instead (config in deploy/).
//
// # Guarantees
//
//   - At least once, nothing lost: the relay confirms an LSN to Postgres
//     (standby status update) only after Kafka acknowledged (acks=all) every
//     message of every transaction that ends at or before it. A crash at
//     any point replays from the last confirmed transaction; consumers are
//     idempotent.
//   - Ordered per row: the key is the primary key and the partitioner is
//     Murmur2 (Kafka's Java default), so a row's changes land on one
//     partition, in commit order.
//   - A new slot starts with a consistent snapshot: the slot is created
//     with EXPORT_SNAPSHOT and every published table is read in that
//     snapshot (op r) before streaming starts at the slot's consistent
//     point. Completion is recorded in cdc_relay_state; a snapshot cut
//     short by a crash is redone with a new slot.
//   - One active relay: a session advisory lock; a second relay waits for it.
//   - Heartbeats: when nothing changes, the relay writes cdc_heartbeat
//     every HeartbeatInterval and confirms the server's WAL position, so the
//     slot never holds WAL back.
//
// # Debezium settings emulated
//
// The deploy/ connector config must match these, so that either producer
// gives the consumers the same topics, keys and values. Copy them:
//
//	connector.class                     io.debezium.connector.postgresql.PostgresConnector
//	plugin.name                         pgoutput
//	topic.prefix                        agora            (topics agora.public.<table>)
//	slot.name                           agora_relay      (Debezium's own slot name may differ; one of the two runs)
//	publication.name                    agora_cdc
//	publication.autocreate.mode         all_tables       (the heartbeat table must be published, and tables of later migrations too; table.exclude.list keeps bookkeeping off Kafka)
//	schema.include.list                 public
//	table.exclude.list                  public.schema_migrations,public.cdc_relay_state,public.cdc_heartbeat
//	snapshot.mode                       initial
//	key.converter                       org.apache.kafka.connect.json.JsonConverter
//	key.converter.schemas.enable        false
//	value.converter                     org.apache.kafka.connect.json.JsonConverter
//	value.converter.schemas.enable      false
//	decimal.handling.mode               string           (numeric → "12.30")
//	time.precision.mode                 adaptive_time_microseconds (timestamp(4-6) → µs since epoch, timestamp(0-3) → ms, date → days, time → µs)
//	interval.handling.mode              string           (ISO 8601, "P1DT2H")
//	binary.handling.mode                base64           (bytea → base64 string)
//	hstore.handling.mode                json
//	tombstones.on.delete                false
//	skipped.operations                  none             (truncates are emitted, op t)
//	provide.transaction.metadata        false
//	heartbeat.interval.ms               10000
//	heartbeat.action.query              INSERT INTO cdc_heartbeat (id, beat_on) VALUES (1, now()) ON CONFLICT (id) DO UPDATE SET beat_on = excluded.beat_on
//	topic.creation.default.partitions   8
//	topic.creation.default.replication.factor  -1
//	producer.override.acks              all
//	producer.override.partitioner.class (default: murmur2 on the key)
//
// Values: timestamptz is io.debezium.time.ZonedTimestamp, an ISO 8601
// string in UTC with the column's six fractional digits
// ("2026-11-22T08:27:03.123456Z"); uuid is a string; json and jsonb are
// io.debezium.data.Json, the document as a string; arrays are JSON arrays;
// booleans and integers are JSON booleans and numbers. Source fields:
// version, connector "postgresql", name (the topic prefix), ts_ms (commit
// time), snapshot ("true", "first", "last", or "false"), db, sequence,
// schema, table, txId, lsn, xmin. One deliberate difference: Debezium's
// sequence is ["<last commit LSN>", "<lsn>"]; the relay puts the commit LSN
// of the change's own transaction first, which orders a row's changes the
// same way and also lets a rebuild split the stream exactly at a snapshot.
package relay
