import { queryOptions, useQuery } from '@tanstack/react-query'
import { looseApi, unwrap } from '@/api/client'
import type { Community, MyForum } from './types'

/** CommunityWithForums is GET /communities/{id}: the community and its forums in order. */
export type CommunityWithForums = Community & { series: MyForum[] }

export async function getCommunity(id: string, signal?: AbortSignal) {
  return unwrap<CommunityWithForums>(await looseApi.GET('/api/communities/{id}', { params: { path: { id } }, signal }))
}

/** communityQuery: ['community', id]; everything of one community is under ['community', id]. */
export const communityQuery = (id: string) =>
  queryOptions({
    queryKey: ['community', id],
    queryFn: ({ signal }) => getCommunity(id, signal),
    staleTime: 300_000,
  })

export const useCommunity = (id: string) => useQuery(communityQuery(id))
