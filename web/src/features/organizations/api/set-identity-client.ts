import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import type { IdentityClient } from './types'

/** setIdentityClient turns single sign-on on, or changes its client; the server reads the issuer's discovery document first. */
export async function setIdentityClient(organizationId: string, body: IdentityClient) {
  unwrap(await api.PUT('/api/organizations/{id}/identity-client', { params: { path: { id: organizationId } }, body }))
}

/** useSetIdentityClient: the form shows the server's field errors; the organization is read again. */
export function useSetIdentityClient(organizationId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: IdentityClient) => setIdentityClient(organizationId, body),
    meta: { silent: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['organizations'] }),
  })
}
