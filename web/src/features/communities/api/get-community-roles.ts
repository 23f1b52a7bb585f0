import { queryOptions, useQuery } from '@tanstack/react-query'
import { looseApi, unwrap } from '@/api/client'
import type { CommunityRole } from './types'

export async function getCommunityRoles(communityId: string, signal?: AbortSignal) {
  return unwrap<CommunityRole[]>(await looseApi.GET('/api/communities/{id}/roles', { params: { path: { id: communityId } }, signal }))
}

/** communityRolesQuery: ['community', id, 'roles'], sorted by name, without "account manager". */
export const communityRolesQuery = (communityId: string) =>
  queryOptions({
    queryKey: ['community', communityId, 'roles'],
    queryFn: ({ signal }) => getCommunityRoles(communityId, signal),
    staleTime: Infinity,
  })

export const useCommunityRoles = (communityId: string) => useQuery(communityRolesQuery(communityId))
