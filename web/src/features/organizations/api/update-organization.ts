import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import type { OrganizationPatch } from './types'

export async function updateOrganization(id: string, body: OrganizationPatch) {
  unwrap(await api.PATCH('/api/organizations/{id}', { params: { path: { id } }, body }))
}

/** useUpdateOrganization saves the settings; names shown elsewhere are read again. */
export function useUpdateOrganization(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: OrganizationPatch) => updateOrganization(id, body),
    meta: { silent: true },
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: ['organizations'] }), queryClient.invalidateQueries({ queryKey: ['permissions'] })]),
  })
}
