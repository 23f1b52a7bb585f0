import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

export async function getOrganization(id: string, signal?: AbortSignal) {
  return unwrap(await api.GET('/api/organizations/{id}', { params: { path: { id } }, signal }))
}

/** organizationQuery: ['organizations', id]. */
export const organizationQuery = (id: string) =>
  queryOptions({ queryKey: ['organizations', id], queryFn: ({ signal }) => getOrganization(id, signal) })

export const useOrganization = (id: string) => useQuery(organizationQuery(id))
