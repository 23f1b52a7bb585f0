import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { HUB_EVENTS, LIVE_KEYS, payloadOf, type HubMessage } from '@/api/hub-events'
import { useHubEvents } from '@/lib/hub'
import { useCurrentUser } from '@/lib/session-context'
import { notificationKeys } from '../api/get-notifications'

/**
 * applyNotificationEvent reads the notifications again when m brings the
 * member (me) one: a mention, a comment or reply to what they wrote, a
 * forum they were given access to (user.notified), a community they were
 * added to (whose lists are read again too), or another tab's change to
 * what was seen, read or dismissed. It says whether it did.
 */
export function applyNotificationEvent(qc: QueryClient, me: string, m: HubMessage): boolean {
  const { mentioned, notified, communityJoined, replyNotice, personalizationUpdated } = HUB_EVENTS
  const keys = payloadOf(m, personalizationUpdated)?.keys
  const mine =
    m.event === mentioned ||
    m.event === notified ||
    m.event === communityJoined ||
    payloadOf(m, replyNotice)?.parentCreatorId === me ||
    (Array.isArray(keys) && keys.some((k) => typeof k === 'string' && k.startsWith('notifications.posts.')))
  if (mine) void qc.invalidateQueries({ queryKey: notificationKeys.all })
  if (m.event === communityJoined) {
    // Added to a community: it joins Home and its page opens, with the
    // community's open forums (its members are theirs), without a reload.
    void qc.invalidateQueries({ queryKey: ['communities'] })
    void qc.invalidateQueries({ queryKey: ['community'] })
    void qc.invalidateQueries({ queryKey: ['series'] })
  }
  return mine
}

/** useNotificationsLive applies the member's notification events, and reads the list again if it was read before a connection went live (useHubEvents). */
export function useNotificationsLive() {
  const qc = useQueryClient()
  const me = useCurrentUser()?.user.id
  useHubEvents(
    me ? LIVE_KEYS.user(me) : undefined,
    (m) => void (me && applyNotificationEvent(qc, me, m)),
    (missed) => void qc.invalidateQueries({ queryKey: notificationKeys.all, predicate: missed }),
  )
}
