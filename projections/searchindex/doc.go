// Package searchindex is the search projection: it keeps the search read
// store (package search: members, hashtags, posts, peers) up to date with
// the row changes of the pipeline, in its own consumer group ("search").
//
// A change does not carry a whole document: a member document gathers a
// profile, its user and every membership, a post names its forum and
// community. So a change only says which documents it touches (their
// keys); once per batch the projection reads those documents as they are
// now from Postgres, in one statement per index, upserts the ones that
// exist and deletes the others. Reading the current state makes every
// apply idempotent and order-free: a change replayed, or an old change
// arriving after a newer one, writes what is true at the time of the read,
// and the later changes of the same rows follow in the stream.
//
// Rebuild (agora projector rebuild search) empties the four indexes and
// applies a snapshot of the tables the same way.
//
// What goes where:
//   - members: one document per profile (names from the user once
//     registered), with the communities and forums the profile belongs to
//     (any status: invited members are found too), the ones it administers
//     and where it is an expert.
//   - peers: one document per user with an active community membership:
//     who a member may chat with privately, with the names of the forums
//     they are an expert in and their interest tags.
//   - posts: threads, comments and replies with their forum, channel and
//     community; an anonymous question has no author in the index. A Meet
//     Up's minutes are a document of their own (kind minutes, see
//     minutes.go), readable by its creator and invitees only.
//   - hashtags: one document per forum and lower-cased name, counting the
//     posts and comments of the forum's feed (its main channel; the admin
//     channel's tags stay with the admins) that use it; none at zero.
package searchindex
