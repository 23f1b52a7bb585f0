import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import type { CommunityWithForums } from './get-community'

export async function reorderForums(communityId: string, ids: string[]) {
  unwrap(await api.PUT('/api/communities/{communityId}/series-order', { params: { path: { communityId } }, body: { ids } }))
}

/**
 * useReorderForums saves a new order of the community's forums. The page
 * shows the new order at once and goes back to the saved one on a failure.
 */
export function useReorderForums(communityId: string) {
  const queryClient = useQueryClient()
  const key = ['community', communityId]
  return useMutation({
    mutationFn: (ids: string[]) => reorderForums(communityId, ids),
    onMutate: (ids) => {
      const before = queryClient.getQueryData<CommunityWithForums>(key)
      if (before) {
        const byId = new Map(before.series.map((f) => [f.id, f]))
        queryClient.setQueryData(key, { ...before, series: ids.map((id) => byId.get(id)!).filter(Boolean) })
      }
      return { before }
    },
    onError: (_e, _ids, ctx) => {
      if (ctx?.before) queryClient.setQueryData(key, ctx.before)
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['communities', 'mine'] }),
  })
}
