import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

export async function getCommunityPermissions(signal?: AbortSignal) {
  return unwrap(await api.GET('/api/permissions', { params: { query: { type: 'community' } }, signal }))
}

/** communityPermissionsQuery: ['permissions', 'community'], the communities the user manages (the Manage menu's Communities entry). */
export const communityPermissionsQuery = () =>
  queryOptions({
    queryKey: ['permissions', 'community'],
    queryFn: ({ signal }) => getCommunityPermissions(signal),
    staleTime: 300_000,
  })

export const useCommunityPermissions = () => useQuery(communityPermissionsQuery())
