// Package live delivers to browsers: the hub that holds the WebSocket
// connections of one API node (transport-free: httpapi upgrades the request
// and pumps a Client's messages) and the presence those connections make
// (spec 000 §7, 002 §4). The realtime projection (projections/realtime)
// feeds the hub with the events of the change stream and asks it who is
// connected, so that it reads who may receive an event only for them.
//
// Presence is kept in Postgres: each node beats its row in presence_nodes
// and writes a presence row per connected member; online_users adds them
// up across tabs and nodes (a trigger), and a node not heard from for
// StaleAfter is swept with its rows, so a killed node's members go offline.
// Each tab reports whether it is idle (hidden or without input for
// AwayAfter); a node's presence row says idle when all its tabs of the
// member are, and online_users turns the rows and the member's choice
// (presence_choices) into online, away or do-not-disturb (migration 0017).
// Online answers the question other features ask.
package live
