import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

/**
 * setForumComplimentary gives (PUT) or takes (DELETE) a member's
 * complimentary access to a paid forum, which spares them its payment.
 */
export async function setForumComplimentary(id: string, profileId: string, given: boolean) {
  const params = { path: { id, profileId } }
  const path = '/api/series/{id}/profiles/{profileId}/complimentary'
  unwrap(given ? await api.PUT(path, { params }) : await api.DELETE(path, { params }))
}

/**
 * useSetForumComplimentary switches one member's complimentary access; the
 * row shows the new state while the call runs, and the forum's lists
 * (['series', id, …]) are read again after it.
 */
export function useSetForumComplimentary(id: string, profileId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (given: boolean) => setForumComplimentary(id, profileId, given),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['series', id] }),
  })
}
