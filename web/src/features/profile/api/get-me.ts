import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

// The API's read of the signed-in user is the token decode.
export async function getMe(signal?: AbortSignal) {
  return unwrap(await api.GET('/api/tokens/decode', { signal }))
}

/** meQuery: ['users', 'me'], always fresh when the profile opens. */
export const meQuery = () => queryOptions({ queryKey: ['users', 'me'], queryFn: ({ signal }) => getMe(signal), staleTime: 0 })

export const useMe = () => useQuery(meQuery())
