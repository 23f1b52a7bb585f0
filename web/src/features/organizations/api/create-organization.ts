import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import type { OrganizationForm } from './types'

export async function createOrganization(body: OrganizationForm) {
  return unwrap(await api.POST('/api/organizations', { body }))
}

/** useCreateOrganization (super users): the lists and permissions read the new one. */
export function useCreateOrganization() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createOrganization,
    meta: { silent: true },
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: ['organizations'] }), queryClient.invalidateQueries({ queryKey: ['permissions'] })]),
  })
}
