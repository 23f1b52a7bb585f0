import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'
import { forumPeople, inviteToForum } from './invite-to-forum'

export type AssignInput = { state: Schemas['ForumStagedState']; invite: string[] }

/**
 * assign applies a staged state (POST /api/series/{id}/assignments, all or
 * nothing), then mails the invitations of the people who joined (POST
 * /api/series/{id}/invitations; the server skips those with an account).
 */
export async function assign(id: string, { state, invite }: AssignInput) {
  unwrap(await api.POST('/api/series/{id}/assignments', { params: { path: { id } }, body: state }))
  if (invite.length > 0) await inviteToForum(id, invite)
}

/** useAssign refreshes the forum's member lists once applied; the caller shows its own errors. */
export function useAssign(id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: AssignInput) => assign(id, input),
    meta: { silent: true },
    onSettled: () => Promise.all([...forumPeople(id), ['series', id, 'admin-count']].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  })
}
