import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import type { CommunityForm } from './types'

export async function updateCommunity(id: string, body: CommunityForm) {
  unwrap(await api.PATCH('/api/communities/{communityId}', { params: { path: { communityId: id } }, body }))
}

/** useUpdateCommunity saves the form's fields; the community and the lists are read again. */
export function useUpdateCommunity(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: CommunityForm) => updateCommunity(id, body),
    meta: { silent: true },
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: ['community', id] }), queryClient.invalidateQueries({ queryKey: ['communities'] })]),
  })
}
