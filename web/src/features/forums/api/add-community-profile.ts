import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, isApiError, unwrap } from '@/api/client'
import { getAssignables } from './get-assignables'

export type NewIndividual = { firstName: string; lastName: string; email: string }

/**
 * addIndividual makes a person a member of the forum's community (POST
 * /api/communities/{id}/profiles, without the community's invitation mail:
 * the forum's own invitation follows) and returns their profile id. When
 * the community already has someone with that address (emailConflict), that
 * person is the one meant: they are looked up among the forum's assignables
 * instead, and `isAssigned` says whether they already have access.
 */
export async function addIndividual(communityId: string, seriesId: string, p: NewIndividual): Promise<{ id: string; isAssigned: boolean }> {
  const body = { firstName: p.firstName.trim(), lastName: p.lastName.trim(), email: p.email.trim(), roleId: 'member' as const, sendInvitation: false }
  try {
    const created = unwrap(await api.POST('/api/communities/{communityId}/profiles', { params: { path: { communityId } }, body }))
    return { id: created.id, isAssigned: false }
  } catch (err) {
    if (!isApiError(err) || err.code !== 'emailConflict') throw err
    const key = body.email.toLowerCase()
    for (const isAssigned of [false, true]) {
      const found = await getAssignables(seriesId, { page: 1, pageSize: 25, keyword: body.email, isAssigned })
      const match = found.results.find((a) => a.email.toLowerCase() === key)
      if (match) return { id: match.id, isAssigned: match.isAssigned }
    }
    throw err
  }
}

/** useAddIndividual: the caller shows its own errors; the access lists read the new person. */
export function useAddIndividual(communityId: string, seriesId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (p: NewIndividual) => addIndividual(communityId, seriesId, p),
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['series', seriesId, 'assignables'] }),
  })
}
