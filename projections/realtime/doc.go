// Package realtime is the live-event side of Agora: the hub that holds the
// WebSocket connections of one API node (transport-free: the HTTP layer in
// internal/httpapi upgrades the request and pumps a Client's messages), the
// presence those connections make, and the realtime projection that turns
// row changes into api:messages:broadcast events for the connected members
// who may read them (spec 000 §7, 001 §7, 002 §4 and §7).
//
// Every API node runs the projection in a consumer group of its own (its
// Name carries the node id), so every node sees every change and delivers
// it to the connections it holds; N nodes behind a load balancer work
// without talking to each other. Who may read an event is asked of Postgres
// at delivery time, and only for the members connected to this node.
//
// Adding a table is one entry in mappers (events.go): a function from a row
// change to the events it makes and their audiences.
package realtime
