import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

export type OrganizationsParams = { keyword: string; page: number; pageSize: number }

export async function listOrganizations(p: OrganizationsParams, signal?: AbortSignal) {
  const query = { page: p.page, pageSize: p.pageSize, sort: 'name asc', ...(p.keyword ? { keyword: p.keyword } : {}) }
  return unwrap(await api.GET('/api/organizations', { params: { query }, signal }))
}

/** organizationsQuery: ['organizations', 'list', params], sorted by name. */
export const organizationsQuery = (p: OrganizationsParams) =>
  queryOptions({ queryKey: ['organizations', 'list', p], queryFn: ({ signal }) => listOrganizations(p, signal) })

export const useOrganizations = (p: OrganizationsParams) => useQuery({ ...organizationsQuery(p), placeholderData: keepPreviousData })
