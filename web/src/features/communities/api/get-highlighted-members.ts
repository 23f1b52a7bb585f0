import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import type { HighlightedMembers } from './types'

export async function getHighlightedMembers(communityIds: string[], signal?: AbortSignal) {
  return unwrap(await api.POST('/api/communities/get-highlighted-members', { body: { communityIds }, signal }))
}

// The server takes at most 100 ids a call.
const BATCH = 100

/**
 * highlightedMembersQuery: ['communities', 'highlighted', ids], up to three
 * members (admins and experts first) and the total of each community, for
 * the avatar groups; ids the user cannot read are absent from the answer.
 */
export const highlightedMembersQuery = (communityIds: string[]) =>
  queryOptions({
    queryKey: ['communities', 'highlighted', [...communityIds].sort()],
    queryFn: async ({ signal }) => {
      const batches: string[][] = []
      for (let i = 0; i < communityIds.length; i += BATCH) batches.push(communityIds.slice(i, i + BATCH))
      const parts = await Promise.all(batches.map((b) => getHighlightedMembers(b, signal)))
      return Object.assign({}, ...parts) as HighlightedMembers
    },
    staleTime: 300_000,
  })

export const useHighlightedMembers = (communityIds: string[]) => useQuery({ ...highlightedMembersQuery(communityIds), enabled: communityIds.length > 0 })
