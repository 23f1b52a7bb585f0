import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

/** removeIdentityClient turns single sign-on off; sessions already open stay. */
export async function removeIdentityClient(organizationId: string) {
  unwrap(await api.DELETE('/api/organizations/{id}/identity-client', { params: { path: { id: organizationId } } }))
}

/** useRemoveIdentityClient: the organization is read again. */
export function useRemoveIdentityClient(organizationId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => removeIdentityClient(organizationId),
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['organizations'] }),
  })
}
