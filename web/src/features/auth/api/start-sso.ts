import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

/** startSSO finds the organization of a work address and starts its sign-in (POST /api/sso/start). */
export async function startSSO({ email, organizationId, redirect }: { email: string; organizationId?: string; redirect?: string }) {
  return unwrap(await api.POST('/api/sso/start', { body: { email: email.trim(), organizationId, redirect } }))
}

export const useStartSSO = () => useMutation({ mutationFn: startSSO, meta: { silent: true } })
