import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useHubEvents, type HubMessage } from '@/lib/hub'
import { PERSONALIZATION_UPDATED } from '@/lib/personalization'
import { useCurrentUser } from '@/lib/session-context'
import { notificationKeys } from '../api/get-notifications'

/** The live events that bring the member a notification (contract 17, spec 000 §7). */
export const NOTIFICATION_EVENTS = {
  mentioned: 'user.mentioned',
  communityJoined: 'user.community.joined',
  replyCreated: 'channel.thread.reply.created',
  notified: 'user.notified',
  personalization: PERSONALIZATION_UPDATED,
} as const

/**
 * applyNotificationEvent reads the notifications again when m brings the
 * member (me) one: a mention, a comment or reply to what they wrote, a
 * forum they were given access to (user.notified), a community they were
 * added to (whose lists are read again too), or another tab's change to
 * what was seen, read or dismissed. It says whether it did.
 */
export function applyNotificationEvent(qc: QueryClient, me: string, m: HubMessage): boolean {
  const p = (m.data?.payload ?? {}) as { parentCreatorId?: unknown; keys?: unknown }
  const mine =
    m.event === NOTIFICATION_EVENTS.mentioned ||
    m.event === NOTIFICATION_EVENTS.notified ||
    m.event === NOTIFICATION_EVENTS.communityJoined ||
    (m.event === NOTIFICATION_EVENTS.replyCreated && p.parentCreatorId === me) ||
    (m.event === NOTIFICATION_EVENTS.personalization && Array.isArray(p.keys) && p.keys.some((k) => typeof k === 'string' && k.startsWith('notifications.posts.')))
  if (mine) void qc.invalidateQueries({ queryKey: notificationKeys.all })
  if (m.event === NOTIFICATION_EVENTS.communityJoined) {
    // Added to a community: it joins Home and its page opens, with the
    // community's open forums (its members are theirs), without a reload.
    void qc.invalidateQueries({ queryKey: ['communities'] })
    void qc.invalidateQueries({ queryKey: ['community'] })
    void qc.invalidateQueries({ queryKey: ['series'] })
  }
  return mine
}

/** useNotificationsLive applies the member's notification events, and reads the list again after a lost connection. */
export function useNotificationsLive() {
  const qc = useQueryClient()
  const me = useCurrentUser()?.user.id
  useHubEvents(
    me ? `user:${me}` : undefined,
    (m) => void (me && applyNotificationEvent(qc, me, m)),
    () => void qc.invalidateQueries({ queryKey: notificationKeys.all }),
  )
}
