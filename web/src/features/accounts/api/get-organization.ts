import { queryOptions, useQuery } from '@tanstack/react-query'
import { looseApi, unwrap } from '@/api/client'
import type { Organization } from './types'

export async function getOrganization(id: string, signal?: AbortSignal) {
  return unwrap<Organization>(await looseApi.GET('/api/organizations/{id}', { params: { path: { id } }, signal }))
}

/** organizationQuery: ['organizations', id]. */
export const organizationQuery = (id: string) =>
  queryOptions({ queryKey: ['organizations', id], queryFn: ({ signal }) => getOrganization(id, signal) })

export const useOrganization = (id: string) => useQuery(organizationQuery(id))
