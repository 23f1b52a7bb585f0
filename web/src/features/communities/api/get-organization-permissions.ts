import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

export async function getOrganizationPermissions(signal?: AbortSignal) {
  return unwrap(await api.GET('/api/permissions', { params: { query: { type: 'organization' } }, signal }))
}

/**
 * organizationPermissionsQuery: ['permissions', 'organization'], the
 * organizations the user manages and may add communities to (spec 000 §6):
 * the Manage menu's Accounts entry and the Add community button.
 */
export const organizationPermissionsQuery = () =>
  queryOptions({
    queryKey: ['permissions', 'organization'],
    queryFn: ({ signal }) => getOrganizationPermissions(signal),
    staleTime: 300_000,
  })

export const useOrganizationPermissions = () => useQuery(organizationPermissionsQuery())
