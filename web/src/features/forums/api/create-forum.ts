import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

export async function createForum(communityId: string, body: Schemas['ForumForm']) {
  return unwrap(await api.POST('/api/communities/{communityId}/series', { params: { path: { communityId } }, body }))
}

/** useCreateForum adds a forum to the community (last in its order); the community and the lists read it. */
export function useCreateForum(communityId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: Schemas['ForumForm']) => createForum(communityId, body),
    meta: { silent: true },
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: ['community', communityId] }), queryClient.invalidateQueries({ queryKey: ['communities'] })]),
  })
}
