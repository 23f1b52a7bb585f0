// The unread marker (spec 001 §4 "Feed refresh and unread"): an item is new
// if it was created after the last-seen time and not by the current member.
// A post says it is the member's own by isMine, which an anonymous question
// carries to its asker alone (its creatorId is null for everyone).
// The last-seen time starts as the forum visit's previouslyVisitedOn and
// moves to now when the member reacts, comments or opens replies.

/** Seen is the feed's last-seen time, the member, and how to move it to now. */
export type Seen = { lastSeen: string | null | undefined; me: string | undefined; touch: () => void }

/**
 * isNew says whether to mark an item. Before the visit is known, and on a
 * first visit (no previous one), nothing is marked: every post would be.
 */
export function isNew(item: { createdOn: string; creatorId: string | null; isMine?: boolean }, seen: Pick<Seen, 'lastSeen' | 'me'>): boolean {
  if (!seen.lastSeen) return false
  if (item.isMine || (item.creatorId && item.creatorId === seen.me)) return false
  return Date.parse(item.createdOn) > Date.parse(seen.lastSeen)
}
