import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import type { AssignmentChange, BulkAssignment } from './types'

export async function assignBulk(communityId: string, body: BulkAssignment) {
  return unwrap(await api.POST('/api/communities/{communityId}/assignments/bulk', { params: { path: { communityId } }, body }))
}

export async function assign(communityId: string, body: AssignmentChange[]) {
  return unwrap(await api.POST('/api/communities/{communityId}/assignments', { params: { path: { communityId } }, body }))
}

/** invite mails the invitations of the people given (POST /communities/{id}/invitations); the server skips those with an account. */
export async function invite(communityId: string, profileIds: string[]) {
  return unwrap(await api.POST('/api/communities/{communityId}/invitations', { params: { path: { communityId } }, body: { profileIds } }))
}

/**
 * useShareCommunity sends the share dialog's changes: the bulk one first
 * (it would otherwise undo the members' own choices), then those, then
 * mails the invitations of the people given a role one by one, as the
 * forum share does. The community's lists are read again.
 */
export function useShareCommunity(communityId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ bulk, changes }: { bulk?: BulkAssignment; changes: AssignmentChange[] }) => {
      let changed = 0
      if (bulk) changed += (await assignBulk(communityId, bulk)).changed
      if (changes.length > 0) changed += (await assign(communityId, changes)).changed
      const invited = changes.flatMap((c) => (c.roleId === null ? [] : c.assigneeIds))
      if (invited.length > 0) await invite(communityId, invited)
      return { changed }
    },
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: ['community', communityId] }), queryClient.invalidateQueries({ queryKey: ['communities'] })]),
  })
}
