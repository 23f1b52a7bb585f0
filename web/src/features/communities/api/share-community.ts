import { useMutation, useQueryClient } from '@tanstack/react-query'
import { assign } from './assign-community'
import { assignBulk } from './assign-community-bulk'
import { invite } from './invite-to-community'
import type { AssignmentChange, BulkAssignment } from './types'

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
