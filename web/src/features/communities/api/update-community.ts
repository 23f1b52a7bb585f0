import { useMutation, useQueryClient } from '@tanstack/react-query'
import { looseApi, unwrap } from '@/api/client'
import type { CommunityForm } from './types'

export async function updateCommunity(id: string, body: Partial<CommunityForm>) {
  unwrap(await looseApi.PATCH('/api/communities/{id}', { params: { path: { id } }, body }))
}

/** useUpdateCommunity saves the form's fields; the community and the lists are read again. */
export function useUpdateCommunity(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: Partial<CommunityForm>) => updateCommunity(id, body),
    meta: { silent: true },
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: ['community', id] }), queryClient.invalidateQueries({ queryKey: ['communities'] })]),
  })
}
