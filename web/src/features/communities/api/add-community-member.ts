import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

export type AddCommunityMember = Schemas['AddCommunityProfileRequest']

export async function addCommunityMember(communityId: string, body: AddCommunityMember) {
  return unwrap(await api.POST('/api/communities/{communityId}/profiles', { params: { path: { communityId } }, body }))
}

/** useAddCommunityMember: the dialog shows its own errors (409 is an email conflict). */
export function useAddCommunityMember(communityId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: AddCommunityMember) => addCommunityMember(communityId, body),
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['community', communityId] }),
  })
}
