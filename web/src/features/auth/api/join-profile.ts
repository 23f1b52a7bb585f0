import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

/** joinProfile joins an invitation's profile to an existing account. */
export async function joinProfile({ userId, token, accessToken }: { userId: string; token: string; accessToken?: string }) {
  return unwrap(
    await api.POST('/api/users/{id}/profiles', {
      params: { path: { id: userId }, query: { token } },
      headers: accessToken ? { Authorization: `Bearer ${accessToken}` } : {},
    }),
  )
}

export const useJoinProfile = () => useMutation({ mutationFn: joinProfile, meta: { silent: true } })
