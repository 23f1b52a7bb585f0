import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import type { Community } from './types'

/** CommunityWithForums is GET /communities/{id}: the community and its forums in order. */
export type CommunityWithForums = Community

export async function getCommunity(id: string, signal?: AbortSignal) {
  return unwrap(await api.GET('/api/communities/{communityId}', { params: { path: { communityId: id } }, signal }))
}

/** communityQuery: ['community', id]; everything of one community is under ['community', id]. */
export const communityQuery = (id: string) =>
  queryOptions({
    queryKey: ['community', id],
    queryFn: ({ signal }) => getCommunity(id, signal),
    staleTime: 300_000,
  })

export const useCommunity = (id: string) => useQuery(communityQuery(id))
