import type { Thread } from './thread-cache'

/**
 * commentMentions is who a comment on the post may mention (spec 001 §5):
 * on a Meet Up post, unless the Meet Up is open, only its invitees and its
 * creator; on any other post, anyone the forum's mentions offer (undefined).
 */
export function commentMentions(meeting: Thread['meeting']): ((userId: string) => boolean) | undefined {
  if (!meeting || meeting.open) return undefined
  const allowed = new Set([meeting.creatorId, ...Object.keys(meeting.invitees)])
  return (userId) => allowed.has(userId)
}
