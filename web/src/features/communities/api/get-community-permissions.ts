import { queryOptions, useQuery } from '@tanstack/react-query'
import { looseApi, unwrap } from '@/api/client'
import type { NamedRef } from './types'

// contract-15: replaced by Schemas['CommunityPermissionsList'] when the API lands
export type CommunityManagePermissions = { whichOnesCanIManage: NamedRef[] }

export async function getCommunityPermissions(signal?: AbortSignal) {
  return unwrap<CommunityManagePermissions>(await looseApi.GET('/api/permissions', { params: { query: { type: 'community' } }, signal }))
}

/** communityPermissionsQuery: ['permissions', 'community'], the communities the user manages (the Manage menu's Communities entry). */
export const communityPermissionsQuery = () =>
  queryOptions({
    queryKey: ['permissions', 'community'],
    queryFn: ({ signal }) => getCommunityPermissions(signal),
    staleTime: 300_000,
  })

export const useCommunityPermissions = () => useQuery(communityPermissionsQuery())
