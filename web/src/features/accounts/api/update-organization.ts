import { useMutation, useQueryClient } from '@tanstack/react-query'
import { looseApi, unwrap } from '@/api/client'
import type { OrganizationForm } from './types'

export async function updateOrganization(id: string, body: Partial<OrganizationForm>) {
  unwrap(await looseApi.PATCH('/api/organizations/{id}', { params: { path: { id } }, body }))
}

/** useUpdateOrganization saves the settings; names shown elsewhere are read again. */
export function useUpdateOrganization(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: Partial<OrganizationForm>) => updateOrganization(id, body),
    meta: { silent: true },
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: ['organizations'] }), queryClient.invalidateQueries({ queryKey: ['permissions'] })]),
  })
}
