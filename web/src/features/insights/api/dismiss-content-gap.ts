import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { insightsKeys } from './keys'

/** dismissContentGap is DELETE /api/insights/series/{seriesId}/content-gaps/{gapId}. */
export async function dismissContentGap(seriesId: string, gapId: string) {
  unwrap(await api.DELETE('/api/insights/series/{seriesId}/content-gaps/{gapId}', { params: { path: { seriesId, gapId } } }))
}

/** useDismissContentGap dismisses a gap and reads the forum's gaps again, in either order. */
export function useDismissContentGap(seriesId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (gapId: string) => dismissContentGap(seriesId, gapId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: insightsKeys.contentGaps(seriesId) }),
  })
}
