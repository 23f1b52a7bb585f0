import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

export async function deleteCommunity(id: string) {
  unwrap(await api.DELETE('/api/communities/{communityId}', { params: { path: { communityId: id } } }))
}

/**
 * useDeleteCommunity deletes it and reads the lists again. The community's
 * own read is left to expire: reading it again while its page is still
 * shown would only answer 404.
 */
export function useDeleteCommunity(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => deleteCommunity(id),
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['communities'] }),
  })
}
