import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { HUB_EVENTS, LIVE_KEYS, payloadOf, type HubMessage, type LivePayloads } from '@/api/hub-events'
import { useHubEvents } from '@/lib/hub'
import { useCurrentUser } from '@/lib/session-context'

export type SubscriptionCreated = LivePayloads['user.subscription.created']

/**
 * subscriptionCreated is m's payload when m is user.subscription.created
 * (a subscription starts giving access, spec 000 §7) for the member me.
 */
export function subscriptionCreated(m: HubMessage, me: string | undefined): SubscriptionCreated | undefined {
  const p = me ? payloadOf(m, HUB_EVENTS.subscriptionCreated) : undefined
  return p && p.userId === me && typeof p.productId === 'string' ? p : undefined
}

/**
 * refreshAfterSubscription reads again what a new subscription changes
 * (spec 000 §4): the communities (the list and each one), the forums
 * (everything under ['series'], their members among them), the
 * notifications, the Meet Ups, and the subscriptions page.
 */
export function refreshAfterSubscription(qc: QueryClient) {
  return Promise.all(
    ['communities', 'community', 'series', 'notifications', 'meetings', 'subscriptions'].map((key) => qc.invalidateQueries({ queryKey: [key] })),
  )
}

/**
 * useSubscriptionsLive refreshes those caches whenever one of the member's
 * subscriptions starts giving access (spec 000 §4, §7), wherever they are:
 * back from checkout, the refreshed forum or community opens by itself and
 * completes the subscribe flow (SubscribeFlow), and another tab's checkout
 * or a renewal after a failed payment shows too. Subscriptions read
 * before a connection went live are read again (useHubEvents).
 */
export function useSubscriptionsLive() {
  const qc = useQueryClient()
  const me = useCurrentUser()?.user.id
  useHubEvents(
    me ? LIVE_KEYS.user(me) : undefined,
    (m) => {
      if (subscriptionCreated(m, me)) void refreshAfterSubscription(qc)
    },
    (missed) => void qc.invalidateQueries({ queryKey: ['subscriptions'], predicate: missed }),
  )
}
