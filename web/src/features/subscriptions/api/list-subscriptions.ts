import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

export type Subscription = Schemas['Subscription']

export async function listSubscriptions(signal?: AbortSignal) {
  return unwrap(await api.GET('/api/subscriptions', { signal }))
}

/** subscriptionsQuery: ['subscriptions', 'mine'], the member's own, newest first. */
export const subscriptionsQuery = () => queryOptions({ queryKey: ['subscriptions', 'mine'], queryFn: ({ signal }) => listSubscriptions(signal) })

export const useSubscriptions = (enabled = true) => useQuery({ ...subscriptionsQuery(), enabled })
