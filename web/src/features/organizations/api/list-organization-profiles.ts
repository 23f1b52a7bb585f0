import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

export type ProfilesParams = { keyword: string; page: number; pageSize: number }

export async function listOrganizationProfiles(organizationId: string, p: ProfilesParams, signal?: AbortSignal) {
  const query = { page: p.page, pageSize: p.pageSize, ...(p.keyword ? { keyword: p.keyword } : {}) }
  return unwrap(await api.GET('/api/organizations/{id}/profiles', { params: { path: { id: organizationId }, query }, signal }))
}

/** organizationProfilesQuery: ['organizations', id, 'profiles', params]. */
export const organizationProfilesQuery = (organizationId: string, p: ProfilesParams) =>
  queryOptions({
    queryKey: ['organizations', organizationId, 'profiles', p],
    queryFn: ({ signal }) => listOrganizationProfiles(organizationId, p, signal),
  })

export const useOrganizationProfiles = (organizationId: string, p: ProfilesParams) =>
  useQuery({ ...organizationProfilesQuery(organizationId, p), placeholderData: keepPreviousData })
