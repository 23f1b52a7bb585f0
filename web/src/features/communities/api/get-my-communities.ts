import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

export type MyCommunity = Schemas['Community']
export type MyForum = Schemas['MyForum']

// The default list is page 1 of 9999 (spec 000 §9).
const params = { page: 1, pageSize: 9999 }

export async function getMyCommunities(signal?: AbortSignal) {
  return unwrap(await api.GET('/api/communities', { params: { query: params }, signal }))
}

/** myCommunitiesQuery: ['communities', 'mine', {page, pageSize}]. */
export const myCommunitiesQuery = () =>
  queryOptions({
    queryKey: ['communities', 'mine', params],
    queryFn: ({ signal }) => getMyCommunities(signal),
    staleTime: 300_000, // community data prefetch stale time (spec 000 §9)
  })

export const useMyCommunities = () => useQuery(myCommunitiesQuery())
