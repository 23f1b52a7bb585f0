import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

/**
 * setCommunityComplimentary gives (PUT) or takes (DELETE) a member's
 * complimentary access to a paid community, which spares them the payment.
 */
export async function setCommunityComplimentary(communityId: string, profileId: string, given: boolean) {
  const params = { path: { communityId, profileId } }
  const path = '/api/communities/{communityId}/profiles/{profileId}/complimentary'
  unwrap(given ? await api.PUT(path, { params }) : await api.DELETE(path, { params }))
}

/**
 * useSetCommunityComplimentary switches one member's complimentary access;
 * the row shows the new state while the call runs, and the community's
 * lists (['community', id, …], ['communities']) are read again after it.
 */
export function useSetCommunityComplimentary(communityId: string, profileId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (given: boolean) => setCommunityComplimentary(communityId, profileId, given),
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: ['community', communityId] }), queryClient.invalidateQueries({ queryKey: ['communities'] })]),
  })
}
