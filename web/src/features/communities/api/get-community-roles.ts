import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

export async function getCommunityRoles(communityId: string, signal?: AbortSignal) {
  return unwrap(await api.GET('/api/communities/{communityId}/roles', { params: { path: { communityId } }, signal }))
}

/** communityRolesQuery: ['community', id, 'roles'], sorted by name, without "account manager". */
export const communityRolesQuery = (communityId: string) =>
  queryOptions({
    queryKey: ['community', communityId, 'roles'],
    queryFn: ({ signal }) => getCommunityRoles(communityId, signal),
    staleTime: Infinity,
  })

export const useCommunityRoles = (communityId: string) => useQuery(communityRolesQuery(communityId))
