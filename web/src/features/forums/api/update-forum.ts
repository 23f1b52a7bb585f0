import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'
import { forumQuery } from './get-forum'

export async function updateForum(id: string, body: Schemas['ForumPatch']) {
  return unwrap(await api.PATCH('/api/series/{id}', { params: { path: { id } }, body }))
}

/** useUpdateForum saves the forum form; the home page's lists show the new name too. */
export function useUpdateForum(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: Schemas['ForumPatch']) => updateForum(id, body),
    meta: { silent: true },
    onSuccess: (forum) => {
      queryClient.setQueryData(forumQuery(id).queryKey, forum)
      return queryClient.invalidateQueries({ queryKey: ['communities'] })
    },
  })
}
