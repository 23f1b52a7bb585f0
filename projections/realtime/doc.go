// Package realtime is the realtime projection: it turns row changes into
// api:messages:broadcast events for the members connected to this node's
// hub (package live) who may read them (spec 000 §7, 001 §7, 002 §4 and
// §7).
//
// Every API node runs the projection in a consumer group of its own (its
// Name carries the node id), so every node sees every change and delivers
// it to the connections it holds; N nodes behind a load balancer work
// without talking to each other. Who may read an event is asked of Postgres
// at delivery time, and only for the members connected to this node.
//
// Adding a table is one entry in mappers (events.go): a function from a row
// change to the events it makes and their audiences.
//
// # Forum events
//
// Posts, comments and reactions (forum.go) make these events, all with the
// context key "thread:<threadId>" of the post they change, so that the
// browser applies them to the post it shows (spec 001 §4) without reading
// it again:
//
//   - thread.created, thread.updated: the feed's Post, the post as the
//     feed's Thread has it (id, channelId, seriesId, type, creatorAs,
//     creatorId, creator, raw, image, file, link, meeting, chat, mentions,
//     hashtags, reactions, createdOn, updatedOn) without the caller's own
//     myReaction and canManage. An edit that changes only updatedOn is
//     not an event.
//   - thread.deleted: {id, channelId, seriesId}.
//   - thread.reply.created, thread.reply.updated: a ReplyPayload, the
//     comment (parentId null) or reply as the feed's Reply has it (id,
//     threadId, parentId, creatorId, creator, raw, mentions, hashtags,
//     reactions, createdOn, updatedOn) and the post's channelId and
//     seriesId.
//   - thread.reply.deleted: the same fields as they were, without creator
//     and reactions.
//   - thread.reacted: {threadId, replyId (null for the post itself),
//     channelId, seriesId, userId, reaction (null when cleared), reactions}:
//     who set which reaction, and the counts once it is set.
//
// Counts, creators and places are read when the event is delivered, once
// for the node and only when someone connected there receives it, through
// query/feed's lookups (Feed), so that they are what the feed shows. The
// audience is the readers of the post's channel as internal/rules/access decides
// (a forum's active members and those who administer it; for its admin
// channel, those who administer it alone). An anonymous question's events
// carry no creatorId or creator, to anyone: as in the feed, the asker is
// shown only through the recorded moderation look (GET
// /api/threads/{threadId}/asker). Changes that follow from a deletion
// (comments and reactions deleted with their post, reactions with their
// comment) make no events of their own.
//
// # Private chat events
//
// Private messages and their reactions (chat.go) make thread.created,
// thread.updated, thread.reacted (the message as query/chat reads it, read
// at delivery, isMine set per receiver) and thread.deleted ({id,
// channelId}), with the context key "channel:<channelId>", for the
// channel's two members alone. A member's lastSeenOn makes
// private.channel.seen and a personalization change
// user.personalization.updated ({userId, keys}), for that member alone.
//
// # Notification events
//
// A row written in notifications (notifications.go) tells its recipient
// alone, context key "user:<userId>": a mention makes user.mentioned with
// the Notification as GET /notifications lists it (the author's and the
// forum's names read at delivery), a comment or reply notification
// channel.thread.reply.created ({id, postId, parentId, parentCreatorId,
// seriesId}). They come from the table, not from the post or comment, so
// that the browser refetching its list finds the row.
//
// # Meet Up events
//
// Meet Ups and their invitees (meetup.go) make, with the context key
// "meeting:<roomId>", meeting.created, meeting.updated and meeting.ended
// (the Meet Up as query/meetup reads it at delivery, as each receiver
// would: their myRole, the minutes' text for its creator and invitees
// only), meeting.invitees.added, .removed and .responded ({roomId,
// userIds, response}: an invitation, a registration, an answer, a seat
// given), meeting.breakouts.updated ({roomId, open}) and
// meeting.minutes.updated ({roomId, postId, state}); a registration or an
// answer is also a meeting.updated (the seats changed). An open Meet Up's
// events reach its forum's readers; a private one's its creator, its
// invitees and those who administer the forum. meeting.deleted ({roomId,
// postId, seriesId}) reaches the forum's readers, who saw its post. A
// change of a Meet Up also sends its post's thread.updated, and a Meet
// Up's post's thread events carry its meeting, as each receiver reads it.
package realtime
