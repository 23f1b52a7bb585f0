import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

export async function deleteOrganization(id: string) {
  unwrap(await api.DELETE('/api/organizations/{id}', { params: { path: { id } } }))
}

/** useDeleteOrganization (super users). */
export function useDeleteOrganization(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => deleteOrganization(id),
    meta: { silent: true },
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: ['organizations', id] })
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ['organizations'] }),
        queryClient.invalidateQueries({ queryKey: ['permissions'] }),
        queryClient.invalidateQueries({ queryKey: ['communities'] }),
      ])
    },
  })
}
