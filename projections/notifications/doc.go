// Package notifications is the notifications projection: it keeps the
// notifications table (migration 0019) up to date with the change stream
// of posts (threads), comments and replies (replies) and private messages
// (private_messages), in its own consumer group ("notifications").
//
// A source makes, for each recipient, at most one row per kind:
//
//   - comment: a comment on the recipient's post, to the post's creator;
//   - reply: a reply to the recipient's comment, to the comment's creator;
//   - mention: a post, comment or reply that mentions the recipient;
//   - message: a private message, to the channel's other member;
//   - meetup-invite: an invitation to a private Meet Up, to the invitee
//     (meeting_invitees; removing the invitee removes it);
//   - meetup-open: an open Meet Up scheduled, to every active member of its
//     forum (meetings);
//   - meetup-seat: a waitlisted member given a seat (meeting_invitees), to
//     them. A Meet Up's notifications have the Meet Up as source and its
//     post as post;
//   - forum-access: a person with an account given access to a forum by
//     one of its admins (series_memberships' assigned_by, Manage Access),
//     to them, as the preview of the change promised; its source is the
//     forum, it has no post, and the membership's removal removes it;
//   - community-join: a member added to a community (community_memberships
//     made active: by its admins, a file import, single sign-on, or an
//     invitation accepted), to them; its source is the community, and it
//     has no forum or post.
//
// The kinds' names, and what each means to the bell, the mails, the pushes
// and the live events, are internal/rules/notice's one table.
//
// Never to the author of the source, and never to one who cannot read the
// post's channel when the change is applied (internal/rules/access's
// ChannelRead, the rule of the feed and the live events). A row of an
// anonymous question names no author (author_id null), whoever reads it.
// What a change does not carry (the post of a comment, the comment a reply
// answers, a forum's community, a private channel's members) is read from
// Postgres, once per batch.
//
// Rows are idempotent: the id is a uuid v5 of (recipient, kind, source),
// inserts do nothing on a row that exists, so a replay of the stream writes
// nothing new. An edit adds the mentions it adds, removes the mention rows
// of those it no longer mentions and gives the rows its new preview; a
// deletion removes the source's rows (a post's deletion those of its
// comments too, which also come as their own deletions).
//
// Rebuild (agora projector rebuild notifications) cannot make a fresh
// table: who could read a forum when a post was written is not in the
// snapshot, so a member removed since would lose what they were told, and
// one added since would be told of old posts. Reset therefore keeps the
// rows whose source still exists and removes the others; the snapshot then
// adds the rows that are missing (for members who may read the forum now).
package notifications
