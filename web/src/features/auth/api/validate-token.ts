import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

export async function validateToken(token: string, email?: string) {
  return unwrap(
    await api.GET('/api/tokens/{token}/validate', { params: { path: { token }, query: email ? { email } : {} } }),
  )
}

/** An invitation or confirmation token, checked before registration. */
export const validateTokenQuery = (token: string, email?: string) =>
  queryOptions({
    queryKey: ['tokens', token, 'validate', { email: email ?? null }],
    queryFn: () => validateToken(token, email),
    retry: false,
    staleTime: Infinity,
  })

export const useValidateToken = (token: string, email?: string) => useQuery(validateTokenQuery(token, email))
