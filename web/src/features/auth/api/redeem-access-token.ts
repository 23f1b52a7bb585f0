import { api, unwrap } from '@/api/client'

/** redeemAccessToken redeems an access link for the signed-in person (the /tokens/… route). */
export async function redeemAccessToken(token: string) {
  return unwrap(await api.POST('/api/tokens/{token}/redeem', { params: { path: { token } } }))
}
