import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { communityQuery } from './get-community'
import type { CommunityForm } from './types'

export async function createCommunity(organizationId: string, body: CommunityForm) {
  return unwrap(await api.POST('/api/organizations/{organizationId}/communities', { params: { path: { organizationId } }, body }))
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * useCreateCommunity creates the community, pauses 200 ms and reads it
 * (spec 000 §4), resolving with it for the caller to open. Creation errors
 * are shown by the form (spec 000 §8).
 */
export function useCreateCommunity(organizationId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (body: CommunityForm) => {
      const { id } = await createCommunity(organizationId, body)
      await pause(200)
      return queryClient.fetchQuery(communityQuery(id))
    },
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['communities'] }),
  })
}
