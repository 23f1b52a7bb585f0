import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

/** startSSO finds the organization of a work address and starts its sign-in (POST /api/sso/start). */
export async function startSSO({ email, organizationId, redirect }: { email: string; organizationId?: string; redirect?: string }) {
  return unwrap(await api.POST('/api/sso/start', { body: { email: email.trim(), organizationId, redirect } }))
}

/** completeSSO finishes it with what the identity provider sent back to /callbacks/auth. */
export async function completeSSO({ state, code }: { state: string; code: string }) {
  return unwrap(await api.POST('/api/sso/callback', { body: { state, code } }))
}

/** redeemAccessToken redeems an access link for the signed-in person (the /tokens/… route). */
export async function redeemAccessToken(token: string) {
  return unwrap(await api.POST('/api/tokens/{token}/redeem', { params: { path: { token } } }))
}

export const useStartSSO = () => useMutation({ mutationFn: startSSO, meta: { silent: true } })
