import { useMutation, useQueryClient } from '@tanstack/react-query'
import { looseApi, unwrap } from '@/api/client'

export async function deleteCommunity(id: string) {
  unwrap(await looseApi.DELETE('/api/communities/{id}', { params: { path: { id } } }))
}

/** useDeleteCommunity deletes it; its own reads are dropped and the lists read again. */
export function useDeleteCommunity(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => deleteCommunity(id),
    meta: { silent: true },
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: ['community', id] })
      return queryClient.invalidateQueries({ queryKey: ['communities'] })
    },
  })
}
