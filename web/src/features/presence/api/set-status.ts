import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'
import { myStatusKey } from './get-status'

export type ChosenStatus = NonNullable<Schemas['StatusRequest']['status']>

/** setStatus is PUT /api/users/me/status: do-not-disturb, or auto again. */
export async function setStatus(status: ChosenStatus) {
  return unwrap(await api.PUT('/api/users/me/status', { body: { status } }))
}

/** useSetStatus chooses the signed-in member's status; their peers see it live (user.status). */
export function useSetStatus() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: setStatus,
    onSuccess: (_, status) => qc.setQueryData(myStatusKey, { status }),
  })
}
