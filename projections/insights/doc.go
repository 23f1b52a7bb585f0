// Package insights is the analytics projection: it keeps the insights
// warehouse (ClickHouse, schema in analytics/migrations, described in
// analytics/README.md) up to date with the row changes of the pipeline,
// in its own consumer group ("insights").
//
// Facts are stateless and idempotent. A change of a row writes a fact
// row for each kind its object has (a post: post, and question, image,
// file, link, video, ai_chat when it has them), with the change's place in
// commit order as version (change.Position's Commit plus one: the end of
// the previous transaction's commit, so a later transaction has a higher
// version; 1 for a snapshot read, older than every streamed change, and
// never 0, which the daily recount's sum of versions could not tell from
// no fact); a delete writes its before-image's kinds inactive, and
// an update writes inactive the before-image's keys the after-image does
// not have (an image removed, a reaction set again on another day). The
// facts table is a ReplacingMergeTree on (forum, kind, day, object), so
// the newest state of each fact wins whatever the order or the number of
// times changes arrive.
//
// A change carries its own row only. What it does not say is looked up,
// once per batch: the forum and channel of a comment's or a reaction's
// post and of an AI search's conversation (the posts and searches seen
// last, kept in memory; else the parents table, which the projection fills
// from posts and searches and which outlives their deletion; else
// Postgres), a forum's community (the forums table, else
// Postgres), a profile's user (Postgres, else the members table). A
// comment whose post is known nowhere (deleted before it was ever
// projected) has nothing active to undo and is skipped.
//
// The forums dimension is re-read from Postgres whenever a forum or one of
// its channels changes, since its row gathers three rows whose changes
// arrive in any order; the members dimension follows its rows' images.
//
// Rebuild (agora projector rebuild insights) truncates the warehouse's
// tables and applies a snapshot the same way.
package insights
