import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

export async function deleteForum(id: string) {
  unwrap(await api.DELETE('/api/series/{id}', { params: { path: { id } } }))
}

/** useDeleteForum deletes the forum and drops what was read of it. */
export function useDeleteForum(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => deleteForum(id),
    meta: { silent: true },
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: ['series', id] })
      return queryClient.invalidateQueries({ queryKey: ['communities'] })
    },
  })
}
