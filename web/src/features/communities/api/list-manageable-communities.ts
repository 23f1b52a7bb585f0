import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

// Manage Communities reads every community the user may manage in one page
// (spec 000 §7: page=1, pageSize=9999); filters narrows it (organizationId:<id>).
const params = { presetFilter: 'manageable' as const, page: 1, pageSize: 9999 }

export async function listManageableCommunities(filters?: string, signal?: AbortSignal) {
  const query = filters ? { ...params, filters } : params
  return unwrap(await api.GET('/api/communities', { params: { query }, signal }))
}

/** manageableCommunitiesQuery: ['communities', 'manageable', {filters}]. */
export const manageableCommunitiesQuery = (filters?: string) =>
  queryOptions({
    queryKey: ['communities', 'manageable', { filters: filters ?? '' }],
    queryFn: ({ signal }) => listManageableCommunities(filters, signal),
  })

export const useManageableCommunities = (filters?: string, enabled = true) => useQuery({ ...manageableCommunitiesQuery(filters), enabled })
