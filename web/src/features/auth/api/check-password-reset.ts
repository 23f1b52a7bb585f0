import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

export async function checkPasswordReset(token: string) {
  return unwrap(await api.GET('/api/tokens/passwordReset/{token}', { params: { path: { token } } }))
}

/** The reset link is checked before the form shows (spec 002 §4). */
export const passwordResetQuery = (token: string) =>
  queryOptions({
    queryKey: ['tokens', 'passwordReset', token],
    queryFn: () => checkPasswordReset(token),
    retry: false,
    staleTime: Infinity,
  })

export const useCheckPasswordReset = (token: string) => useQuery(passwordResetQuery(token))
