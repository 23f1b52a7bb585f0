// Package deploy holds the distributed deployment of Agora, as files rather
// than Go code:
//
//   - docker-compose.yml: PostgreSQL (wal_level=logical), Kafka in KRaft
//     mode, Kafka Connect with the Debezium Postgres connector, Meilisearch,
//     ClickHouse, LiveKit, two `agora api` nodes behind nginx, one
//     `agora projector`, and the one-shot `agora migrate` and connector
//     registration;
//   - Dockerfile: the agora image (web app, then the Go binary with the
//     speech libraries the Meet Up recorder links);
//   - debezium/agora-postgres.json: the connector, with the topic prefix, keys
//     and converter settings that the built-in relay emulates;
//   - nginx/agora.conf and livekit/livekit.yaml: the load balancer and SFU
//     configuration.
//
// compose_test.go loads the compose file with the compose-spec loader (no
// Docker engine needed) and checks images, ports, dependencies, health checks,
// the environment the binary needs and the connector settings. README.md says
// how to run it.
package deploy
