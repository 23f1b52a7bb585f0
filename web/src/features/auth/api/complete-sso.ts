import { api, unwrap } from '@/api/client'

/** completeSSO finishes the sign-in startSSO began with what the identity provider sent back to /callbacks/auth. */
export async function completeSSO({ state, code }: { state: string; code: string }) {
  return unwrap(await api.POST('/api/sso/callback', { body: { state, code } }))
}
