import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'
import { useSessionStore } from '@/lib/session-context'
import { profileKey } from './get-person-profile'

export async function updateMe(body: Schemas['UpdateMeRequest']) {
  return unwrap(await api.PATCH('/api/users/me', { body }))
}

/**
 * useUpdateMe saves the person's own fields (PATCH /users/me): the answer
 * replaces the session's copy (the top bar), and their own profile is read
 * again; their peers' views follow the user.updated event.
 */
export function useUpdateMe() {
  const qc = useQueryClient()
  const session = useSessionStore()
  return useMutation({
    mutationFn: updateMe,
    // The form shows the field errors itself.
    meta: { silent: true },
    onSuccess: (user) => {
      session.updateUser(user)
      return Promise.all([qc.invalidateQueries({ queryKey: ['users', 'me'] }), qc.invalidateQueries({ queryKey: profileKey(user.id) })])
    },
  })
}
