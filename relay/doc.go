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
//     every HeartbeatInterval and confirms that transaction's commit once
//     Kafka has everything before it, so the slot never holds WAL back
//     (writes to other databases included). It confirms nothing else,
//     never a keepalive's position: a relay started again takes the
//     confirmed position for source.sequence's last commit, so what it
//     replays carries the sequence it had the first time.
//
// # Debezium settings emulated
//
// The deploy/ connector config (deploy/debezium/agora-postgres.json)
// must match these, so that either producer gives the consumers the same
// topics, keys and values. Copy them:
//
//	connector.class                     io.debezium.connector.postgresql.PostgresConnector
//	plugin.name                         pgoutput
//	topic.prefix                        agora            (topics agora.public.<table>)
//	slot.name                           agora_debezium   (the relay's is agora_relay: each keeps its own position)
//	publication.name                    agora_cdc
//	publication.autocreate.mode         all_tables       (the heartbeat table must be published, and tables of later migrations too; table.exclude.list keeps bookkeeping off Kafka)
//	schema.include.list                 public
//	table.exclude.list                  public.schema_migrations,public.cdc_relay_state,public.cdc_heartbeat,public.identity_clients,public.sso_flows
//	snapshot.mode                       initial
//	key.converter                       org.apache.kafka.connect.json.JsonConverter
//	key.converter.schemas.enable        false
//	value.converter                     org.apache.kafka.connect.json.JsonConverter
//	value.converter.schemas.enable      false
//	decimal.handling.mode               string           (numeric → "12.30")
//	time.precision.mode                 adaptive_time_microseconds (timestamp(4-6) → µs since epoch, timestamp(0-3) → ms, date → days, time → µs)
//	interval.handling.mode              string           (every field named: "P0Y0M-1DT2H3M0S", "P1Y2M3DT4H5M6.5S")
//	binary.handling.mode                base64           (bytea → base64 string)
//	hstore.handling.mode                json
//	tombstones.on.delete                false            (a delete, or a primary-key update's delete, has no tombstone after it)
//	skipped.operations                  none             (truncates are emitted, op t, key null)
//	provide.transaction.metadata        false
//	heartbeat.interval.ms               10000
//	heartbeat.action.query              INSERT INTO cdc_heartbeat (id, beat_on) VALUES (1, now()) ON CONFLICT (id) DO UPDATE SET beat_on = excluded.beat_on
//	topic.creation.default.partitions   8
//	topic.creation.default.replication.factor  -1
//	producer.override.acks              all
//	producer.override.partitioner.class (default: murmur2 on the key)
//
// # The envelope
//
// app.TestRelayEnvelopeEqualsDebezium runs Debezium 3.6.1.Final on Kafka
// Connect and the relay over the same writes and compares every record's
// key, op, before, after and the source fields the projections read (db,
// schema, table, txId, lsn, sequence, snapshot, ts_ms); what it found is
// what the relay writes:
//
//   - Values: timestamptz is io.debezium.time.ZonedTimestamp, an ISO 8601
//     string in UTC with six fractional digits
//     ("2026-11-22T08:27:03.123456Z"); uuid is a string; json and jsonb
//     are io.debezium.data.Json, the document as Postgres prints it;
//     arrays are JSON arrays; booleans and integers are JSON booleans and
//     numbers; char(n) keeps its padding.
//   - source: version, connector "postgresql", name (the topic prefix),
//     ts_ms, ts_us, ts_ns (the commit time; a snapshot's start for op r),
//     snapshot, db, sequence, schema, table, txId, lsn (the change's own),
//     xmin, origin and origin_lsn (null).
//   - source.sequence is ["<end of the previous transaction's commit
//     record>", "<lsn>"]: the previous transaction is the last one the
//     producer streamed, heartbeats and excluded tables' included, so the
//     first element can be below a change's own LSN (a transaction that
//     began before the previous one committed). It is null for snapshot
//     reads and for the first transaction after a snapshot.
//     change.Position says how that orders a row's changes.
//   - source.snapshot on op r: "first" and "last" for the snapshot's first
//     and last record, "first_in_data_collection" and
//     "last_in_data_collection" for each table's (a table of one row:
//     last), "true" between; tables in name order.
//   - An update that changes the primary key is a delete of the old key
//     (before: the old row, or only its key under REPLICA IDENTITY
//     DEFAULT) and then a create of the new key (before null), both at the
//     update's LSN, each on its own key's partition.
//   - REPLICA IDENTITY DEFAULT: an update has before null; a delete's
//     before has the key and every other column null; an unchanged
//     TOASTed column is "__debezium_unavailable_value" (under FULL the
//     relay fills it from the before-image, as Debezium does).
//
// The differences that remain, each one allowed by that test and no
// other:
//
//   - A snapshot read's source.lsn, the LSN in its source.sequence, its
//     source.txId and source.ts_ms are those of the producer's own
//     snapshot (its own slot's exported snapshot, its own transaction,
//     when it started): two producers cannot share a snapshot.
//
// And beside the compared fields: source.version is "agora-relay-1";
// the envelope's ts_ms, ts_us and ts_ns are when each producer wrote the
// record; a double is written as Postgres prints it (1e-07) where
// Debezium's converter writes Java's form (1.0E-7), the same JSON number.
// Types the product's schema does not use (multi-dimensional arrays,
// infinite timestamps, money, geometric types) are not compared.
package relay
