package deploy

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

//go:embed debezium/agora-postgres.json
var connectorJSON []byte

// Connector is Debezium's connector configuration that deploy/ registers
// (debezium/agora-postgres.json), name included: agora dev --engines real,
// the real-engines tests and the pipeline benchmark run the connector from
// this one file, with only the database's address and credentials set for
// the machine (ConnectorFor).
func Connector() map[string]string {
	var m map[string]string
	if err := json.Unmarshal(connectorJSON, &m); err != nil {
		panic(fmt.Sprintf("deploy: debezium/agora-postgres.json: %v", err)) // the file is checked by the tests
	}
	return m
}

// ConnectorFor is Connector with the database at host:port, user and
// database name set. The password stays ${env:POSTGRES_PASSWORD}: the
// Connect worker reads it from its environment, as in deploy/.
func ConnectorFor(host string, port int, user, dbname string) map[string]string {
	m := Connector()
	m["database.hostname"] = host
	m["database.port"] = fmt.Sprint(port)
	m["database.user"] = user
	m["database.dbname"] = dbname
	return m
}
